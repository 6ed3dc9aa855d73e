"use client";
// The time helpers' words (task-format.ts TimeWords) from the reader's catalogue, with the locale
// their Intl parts are written in.
import { useLocale, useTranslations } from "next-intl";
import { useMemo } from "react";
import { namesZonesByCity, zoneName } from "@/components/ui/zone-name";
import type { TimeWords } from "./task-format";

export function useTimeWords(): { locale: string; words: TimeWords } {
  const t = useTranslations("field.tasks");
  const locale = useLocale();
  return useMemo(() => {
    const known = new Set(["daylight", "midday", "evening"]);
    const words: TimeWords = {
      zone: (city) => t("zone", { city }),
      allDay: (day) => t("allDay", { day }),
      untilMidnight: (day, start) => t("untilMidnight", { day, start }),
      timeOfDayName: (requirement) => (known.has(requirement) ? t(requirement as "daylight") : requirement.replaceAll("_", " ")),
      sunNone: (name, day) => t("sunNone", { name, day }),
      timeOfDay: (name, span, zone, day) => (day ? t("timeOfDayWithDay", { name, span, zone, day }) : t("timeOfDay", { name, span, zone })),
      hours: (start, end, pastMidnight) => t(pastMidnight ? "hoursPastMidnight" : "hoursSpan", { start, end }),
      crowd: (level) => t(`crowdAtLeast.${level}`),
      brand: (brand) => t("brandReadable", { brand: `\u2068${brand}\u2069` }),
      // English says the city ("Rome time"); other languages the zone's own name, not an English city.
      zoneName: (timeZone) => (namesZonesByCity(locale) ? null : zoneName(timeZone, locale)),
    };
    return { locale, words };
  }, [t, locale]);
}
