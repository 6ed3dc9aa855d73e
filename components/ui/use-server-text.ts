"use client";
// A server-made sentence (a check's message, a retake instruction) in the reader's language, on the
// field page and the dashboard alike: its stable code from the catalogue (codes.<code>) with its figures — an angle and a compass
// point in the reader's words, "HH:MM" local times on the reader's clock — else the API's English.
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { Localisable } from "@/lib/verification/place-checks";
import { useAngleLabel } from "@/components/field/use-angle-label";

const LOCAL_CLOCK = /^(\d{2}):(\d{2})$/;

export function useServerText(): (coded: Localisable | null | undefined, english: string) => string {
  const t = useTranslations();
  const locale = useLocale();
  const angleLabel = useAngleLabel();
  return useCallback(
    (coded, english) => {
      if (!coded || coded.code === "text" || !t.has(`codes.${coded.code}`)) return english;
      const clock = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
      const params = Object.fromEntries(
        Object.entries(coded.params).map(([key, value]) => {
          if (key === "angle" && typeof value === "string") return [key, angleLabel(value).toLowerCase()];
          // A place's name keeps its own direction inside a sentence of the other (first-strong isolate).
          if (key === "place" && typeof value === "string") return [key, `\u2068${value}\u2069`];
          if (key === "direction" && typeof value === "string" && t.has(`field.compass.${value}`)) return [key, t(`field.compass.${value}`)];
          const hm = typeof value === "string" ? LOCAL_CLOCK.exec(value) : null;
          if (hm) return [key, clock.format(Date.UTC(2000, 0, 1, Number(hm[1]), Number(hm[2])))];
          return [key, value];
        }),
      );
      return t(`codes.${coded.code}`, params);
    },
    [t, locale, angleLabel],
  );
}

/**
 * What to do differently, line by line: the codes when the page knows every one of them (a
 * `text` code is an English sentence as it is), else the API's English sentences.
 */
export function useInstructionLines(): (codes: Localisable[] | null | undefined, english: string[]) => string[] {
  const t = useTranslations();
  const serverText = useServerText();
  return useCallback(
    (codes, english) => {
      if (!codes || codes.length === 0 || !codes.every((c) => c.code === "text" || t.has(`codes.${c.code}`))) return english;
      return codes.map((c) => (c.code === "text" ? String(c.params.text ?? "") : serverText(c, "")));
    },
    [t, serverText],
  );
}
