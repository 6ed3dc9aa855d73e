// The words of a recurrence rule and how its written forms are read: frequencies, seasons, a
// local time window "HH:MM-HH:MM" and a day of the month ("15th"). Pure: the API's schema, the
// scheduler (lib/service/orders/cycles/cycle-calendar) and the wizard's "when" step share them.
import { parseLocalTime } from "@/lib/geo/calendar";

export const FREQUENCIES = ["daily", "weekly", "monthly"] as const;
export const SEASONS = ["all_year", "summer_only", "winter_only"] as const;

export type Frequency = (typeof FREQUENCIES)[number];
export type Season = (typeof SEASONS)[number];

/** ISO weekdays in order: index 0 is day 1 (Monday). */
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** "HH:MM-HH:MM" → its parts, or null when malformed (24:00, and a zero-length window, included). */
export function parseTimeWindow(s: string): { start: string; end: string; crossesMidnight: boolean } | null {
  const m = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(s);
  if (!m) return null;
  const [, start = "", end = ""] = m;
  const a = parseLocalTime(start);
  const b = parseLocalTime(end);
  if (!a || !b) return null;
  const startMin = a.hour * 60 + a.minute;
  const endMin = b.hour * 60 + b.minute;
  if (startMin === endMin) return null;
  return { start, end, crossesMidnight: endMin < startMin };
}

/** "15th", "1st", "15" or 15 → 15; null when not a day-of-month (1–31). The spec sends ordinals. */
export function parseDayOfMonth(value: string | number): number | null {
  const m = typeof value === "string" ? /^\s*(\d{1,2})(st|nd|rd|th)?\s*$/i.exec(value) : null;
  const n = typeof value === "number" ? value : Number(m?.[1] ?? NaN);
  return Number.isInteger(n) && n >= 1 && n <= 31 ? n : null;
}
