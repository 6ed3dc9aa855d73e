"use client";
// A server-made sentence (a check's message, a retake instruction, a QA reason) in the reader's
// language, on the field page and the dashboard alike: its stable code from the catalogue
// (codes.<code>) with its figures said in the reader's words — an angle, a compass point, a crowd
// level, the objects in the way, the signals of a held photo, "HH:MM" local times on the reader's
// clock, an instant in the reader's format, a time zone by its name there — else the API's English.
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { Localisable } from "@/lib/verification/place-checks";
import { useAngleLabel } from "./use-angle-label";
import { namesZonesByCity, zoneCity, zoneName } from "./zone-name";

const LOCAL_CLOCK = /^(\d{2}):(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

type Translate = ReturnType<typeof useTranslations>;

/** A list figure ("car:1,person:2", "edit_traces,capture_time") named item by item from codes.<namespace>, joined the locale's way. */
function list(t: Translate, locale: string, namespace: string, value: string): string | null {
  const items = value.split(",").map((item) => {
    const [key = "", count] = item.trim().split(":");
    return t.has(`codes.${namespace}.${key}`) ? t(`codes.${namespace}.${key}`, { count: Number(count ?? 1) }) : null;
  });
  if (items.length === 0 || items.some((i) => i === null)) return null;
  return new Intl.ListFormat(locale, { type: "conjunction" }).format(items as string[]);
}

/** Every figure of a coded sentence in the reader's words; the raw figure when there are none. */
function figures(t: Translate, locale: string, angleLabel: (angle: string) => string, params: Localisable["params"]): Record<string, string | number> {
  const clock = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => {
      if (typeof value !== "string") return [key, value];
      const named = (namespace: string) => (t.has(`codes.${namespace}.${value}`) ? t(`codes.${namespace}.${value}`) : value);
      switch (key) {
        case "angle":
          return [key, angleLabel(value).toLocaleLowerCase(locale)];
        // A place's or a brand's name, or a person's own words, keeps its own direction inside a sentence of the other (first-strong isolate).
        case "place":
        case "brand":
        case "reason":
          return [key, `\u2068${value}\u2069`];
        case "direction":
          return [key, t.has(`field.compass.${value}`) ? t(`field.compass.${value}`) : value];
        case "level":
        case "ordered":
          return [key, named("crowd")];
        case "objects":
          return [key, list(t, locale, "objects", value) ?? value];
        case "signals":
          return [key, list(t, locale, "signals", value) ?? value];
        case "checks":
          return [key, list(t, locale, "qa_checks", value) ?? value];
        case "time_zone":
          return [key, namesZonesByCity(locale) ? value : (zoneName(value, locale) ?? zoneCity(value))];
      }
      const hm = LOCAL_CLOCK.exec(value);
      if (hm) return [key, clock.format(Date.UTC(2000, 0, 1, Number(hm[1]), Number(hm[2])))];
      if (INSTANT.test(value) && !Number.isNaN(Date.parse(value)))
        return [key, new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value))];
      return [key, value];
    }),
  );
}

/** A sentence starts with a capital even when its first word is a figure ("A parked car covers…"). */
function capitalised(sentence: string, locale: string): string {
  const at = sentence.search(/\p{L}/u);
  if (at < 0) return sentence;
  const first = sentence.charAt(at);
  return /^[\s"“«„(]*$/u.test(sentence.slice(0, at)) ? sentence.slice(0, at) + first.toLocaleUpperCase(locale) + sentence.slice(at + 1) : sentence;
}

export function useServerText(): (coded: Localisable | null | undefined, english: string) => string {
  const t = useTranslations();
  const locale = useLocale();
  const angleLabel = useAngleLabel();
  return useCallback(
    (coded, english) => {
      if (!coded || coded.code === "text" || !t.has(`codes.${coded.code}`)) return english;
      return capitalised(t(`codes.${coded.code}`, figures(t, locale, angleLabel, coded.params)), locale);
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
