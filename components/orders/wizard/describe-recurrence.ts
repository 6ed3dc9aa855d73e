// A recurrence in the reader's words: "Every Friday, in summer, 18:00–21:00 local time" / "Jeden
// Freitag, im Sommer, 18:00–21:00 Ortszeit". The same parts as the order interface's English
// `schedule` (lib/service/orders/cycles/cycle-calendar describeRule), worded from wizard.json's
// "schedule" messages, with weekdays, dates and times from Intl in the reader's locale. Pure.
import type { DraftRecurring } from "@/lib/orders/draft";
import { parseDayOfMonth, parseTimeWindow } from "@/lib/orders/recurrence-rule";

/** A translator over wizard.json's "schedule" messages (next-intl's t, or createTranslator's). */
export type ScheduleWords = (key: string, values?: Record<string, string | number>) => string;

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
export function localDate(ymd: string, locale: string, style: "short" | "weekday" = "short"): string {
  const options: Intl.DateTimeFormatOptions = style === "weekday" ? { weekday: "short", day: "numeric", month: "short", year: "numeric" } : { day: "numeric", month: "short", year: "numeric" };
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(new Date(`${ymd}T00:00:00Z`));
}

/** The recurrence in words, or null when it is off. */
export function describeRecurrence(recurring: DraftRecurring | undefined, say: ScheduleWords, locale: string): string | null {
  if (!recurring?.enabled) return null;
  const parts: string[] = [];
  const season = recurring.season === "summer_only" ? "summer" : recurring.season === "winter_only" ? "winter" : null;
  const weekday = recurring.frequency === "weekly" && recurring.day_of_week !== undefined ? weekdayName(recurring.day_of_week, locale) : null;
  if (recurring.event_nights_only) {
    const dates = [...new Set(recurring.event_dates ?? [])].sort();
    const list = new Intl.ListFormat(locale, { style: "short", type: "conjunction" }).format(dates.map((d) => localDate(d, locale)));
    parts.push(say("events", { count: dates.length, dates: list }));
    if (weekday) parts.push(say("weekdayOnly", { weekday }));
    if (season) parts.push(say("seasonDatesOnly", { season }));
  } else {
    if (recurring.frequency === "daily") parts.push(say("daily"));
    else if (recurring.frequency === "weekly") parts.push(say("weekly", { weekday: weekday ?? weekdayName(1, locale) }));
    else {
      const day = recurring.deliver_before === undefined ? null : parseDayOfMonth(recurring.deliver_before);
      parts.push(day === null ? say("monthly") : say("monthlyBefore", { day }));
    }
    if (season) parts.push(say("season", { season }));
  }
  const window = recurring.time_window ? parseTimeWindow(recurring.time_window) : null;
  if (window) parts.push(say(window.crossesMidnight ? "windowOvernight" : "window", { start: localClock(window.start, locale), end: localClock(window.end, locale) }));
  return parts.join(say("separator"));
}
