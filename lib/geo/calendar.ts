// Calendar arithmetic without time zones: local dates and times as the partner writes them
// ("2027-06-12", "18:00"). Pure and dependency-free, so browser code (the order wizard) and the
// order vocabulary can use it; ./time-zone adds the zone-aware conversions.

/** A local calendar date "YYYY-MM-DD" → its parts, or null when malformed or not a real day. */
export function parseLocalDate(s: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Year 0 would be 1 BC, which no order means and the formatter prints without its era.
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** "HH:MM" (two digits each, 00:00–23:59) → its parts, or null. "24:00" is not a time of day. */
export function parseLocalTime(s: string): { hour: number; minute: number } | null {
  const m = /^(\d{2}):(\d{2})$/.exec(s);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return null;
  return { hour, minute };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month + 1, 0)).getUTCDate();
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date, independent of any zone. */
export function isoWeekday(year: number, month: number, day: number): number {
  const sundayZero = new Date(utcMs(year, month, day)).getUTCDay();
  return sundayZero === 0 ? 7 : sundayZero;
}

/** Date.UTC with a 1-based month, and without its habit of reading years 0–99 as 1900–1999. */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return year >= 0 && year < 100 ? new Date(ms).setUTCFullYear(year) : ms;
}
