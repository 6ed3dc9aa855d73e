"use client";
// An angle's name in the reader's language ("parking_lot" → "Parking lot", "Aparcamiento"); an
// angle the catalogue does not know yet reads as its words.
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { angleLabel } from "./angle-label";

export function useAngleLabel(): (angle: string) => string {
  const t = useTranslations("field.angles");
  return useCallback((angle: string) => (t.has(angle) ? t(angle) : angleLabel(angle)), [t]);
}

/** What to shoot for an angle, in the reader's words; the API's English description otherwise. */
export function useAngleDescription(): (angle: string, english: string) => string {
  const t = useTranslations("field.angleDescriptions");
  return useCallback((angle: string, english: string) => (t.has(angle) ? t(angle) : english), [t]);
}
