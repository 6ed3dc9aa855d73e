// A recurrence in the reader's words ("Every Friday, June to August, 18:00–21:00 local time" /
// "Jeden Freitag, Juni bis August, 18:00–21:00 Ortszeit"): lib/orders/describe-recurrence, the one
// description the API's English `schedule` and `description` also come from, worded with the
// `vocabulary.schedule` messages and Intl's weekdays, clock times, dates and lists in the reader's
// locale. Pure; the wizard and the order pages reach it through useScheduleDescription.
import { describeRecurrence, type RuleToDescribe, type ScheduleKey, type ScheduleWords } from "@/lib/orders/describe-recurrence";

/** A translator over vocabulary.json's "schedule" messages (next-intl's t, or createTranslator's). */
export type ScheduleSay = (key: ScheduleKey, values?: Record<string, string | number>) => string;

/** ISO weekday (1 = Monday) → its name; 1 January 2024 was a Monday. */
export function weekdayName(isoDay: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2024, 0, isoDay));
}

/** "HH:MM" as a clock time of the locale ("02:00" on a 24-hour clock, "2:00 AM" on a 12-hour one). */
export function localClock(hhmm: string, locale: string): string {
  const [h = 0, m = 0] = hhmm.split(":").map(Number);
  const { hourCycle } = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions();
  const hour = hourCycle === "h23" || hourCycle === "h24" ? "2-digit" : "numeric";
  return new Intl.DateTimeFormat(locale, { hour, minute: "2-digit", timeZone: "UTC" }).format(Date.UTC(2024, 0, 1, h, m));
}

/** "YYYY-MM-DD" (a local date, no zone) as the locale writes a date: "4 Dec 2026", "4. Dez. 2026". */
export function localDate(ymd: string, locale: string, style: "short" | "weekday" | "noYear" = "short"): string {
  const options: Intl.DateTimeFormatOptions =
    style === "weekday"
      ? { weekday: "short", day: "numeric", month: "short", year: "numeric" }
      : style === "noYear"
        ? { day: "numeric", month: "short" }
        : { day: "numeric", month: "short", year: "numeric" };
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(new Date(`${ymd}T00:00:00Z`));
}

/** The description's words in `locale`: the catalogue's messages, Intl for the rest. */
export function scheduleWords(say: ScheduleSay, locale: string): ScheduleWords {
  // A unit list ("a, b, c" / "a, b und c"): the dates are items, not a sentence's "and".
  const list = new Intl.ListFormat(locale, { type: "unit", style: "short" });
  return {
    say,
    weekday: (isoDay) => weekdayName(isoDay, locale),
    clock: (hhmm) => localClock(hhmm, locale),
    date: (ymd, withYear) => localDate(ymd, locale, withYear ? "short" : "noYear"),
    list: (items) => list.format(items),
  };
}

/** The recurrence in words, or null when it is off. `where` (the first location) names the season's months. */
export function describeSchedule(
  rule: (RuleToDescribe & { enabled?: boolean }) | null | undefined,
  say: ScheduleSay,
  locale: string,
  where?: { lat: number },
): string | null {
  if (!rule?.enabled) return null;
  return describeRecurrence(rule, scheduleWords(say, locale), where);
}
