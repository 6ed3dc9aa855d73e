"use client";
// An angle's name in the reader's language ("parking_lot" → "Parking lot", "Aparcamiento"); an
// angle the catalogue does not know yet reads as its words.
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { angleLabel } from "./task-format";

export function useAngleLabel(): (angle: string) => string {
  const t = useTranslations("field.angles");
  return useCallback((angle: string) => (t.has(angle) ? t(angle) : angleLabel(angle)), [t]);
}
