/**
 * Time zones for points on the map, and conversions between UTC instants and local wall-clock
 * time in a zone.
 *
 * Orders speak in local time ("18:00-21:00" at the location), while the scheduler and the
 * database speak in UTC instants. The zone comes from an offline lookup (no network call, so it
 * works in tests and air-gapped installs) and the arithmetic from the runtime's ICU data, which
 * knows every DST rule and historical offset change — hand-written offset logic would not.
 */
import tzLookup from "@photostructure/tz-lookup";
import { daysInMonth, isoWeekday, parseLocalDate, parseLocalTime, utcMs } from "./calendar";

// Calendar arithmetic without zones lives in ./calendar (pure, for browser code too); kept
// importable from here for the zone-aware callers.
export { daysInMonth, isoWeekday, parseLocalDate, parseLocalTime, utcMs };

/**
 * The IANA time zone at a point. Over the open sea this is a nautical zone such as
 * `Etc/GMT+2` (POSIX sign: that one is UTC−2), which is still a valid zone for every function
 * here.
 *
 * @throws RangeError when the coordinates are not a point on Earth.
 */
export function timeZoneAt(lat: number, lng: number): string {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new RangeError(`Not a point on Earth: lat ${lat}, lng ${lng}`);
  }
  return tzLookup(lat, lng);
}

/** Whether the runtime knows this IANA zone name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalParts {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number; // 0–23
  minute: number;
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
}

/** The wall-clock reading in `timeZone` at `instant`. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const { year, month, day, hour, minute } = wallClock(instant.getTime(), timeZone);
  return {
    year,
    month,
    day,
    hour,
    minute,
    weekday: isoWeekday(year, month, day),
  };
}

/**
 * The UTC instant at which the wall clock in `timeZone` reads `date` `time`.
 *
 * Twice a year that question has no single answer. When the clocks jump forward, a time inside
 * the gap never happens: we move forward to the first instant that does exist (02:30 on the
 * spring-forward night in Rome → 03:00 CEST), because a window "from 02:30" can first be met
 * then. When the clocks fall back, a time inside the overlap happens twice: we take the earlier
 * one, so a window never starts later than the partner could have meant.
 *
 * @throws RangeError for a malformed or impossible date/time, or an unknown zone.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const d = parseLocalDate(date);
  const t = parseLocalTime(time);
  if (!d) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  if (!t) throw new RangeError(`Not a time of day (HH:MM, 00:00–23:59): ${JSON.stringify(time)}`);
  // The wall-clock reading written as if it were UTC; every real offset is within ±14 h of it.
  const wall = utcMs(d.year, d.month, d.day, t.hour, t.minute);

  // No zone changes its offset twice within two days, so the offsets a day either side are the
  // only candidates: the reading happens at `wall − offset` for whichever offset is in force then.
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const hits = [...new Set([before, after, offsetMs(wall, timeZone)])]
    .filter((offset) => offsetMs(wall - offset, timeZone) === offset)
    .map((offset) => wall - offset)
    .sort((a, b) => a - b);
  const earliest = hits[0];
  if (earliest !== undefined) return new Date(earliest);

  // In a gap: the transition instant T satisfies T + before <= wall < T + after, so it lies in
  // (wall − after, wall − before]. Find the first instant there that uses the new offset.
  let lo = wall - after; // still on the old offset
  let hi = wall - before; // already on the new one
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetMs(mid, timeZone) === before) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

const DAY_MS = 86_400_000;

// Building a DateTimeFormat costs far more than using one, and the scheduler asks about the
// same few zones thousands of times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      // h23, not hour12: false — the latter prints midnight as "24" in some ICU versions.
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `timeZone` at `ms`, as the runtime's ICU formats it: the ground truth, ~10 µs a call. */
function formattedWallClock(ms: number, timeZone: string): WallClock {
  const out: WallClock = {
    year: 0,
    month: 0,
    day: 0,
    hour: 0,
    minute: 0,
    second: 0,
  };
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    switch (part.type) {
      case "year":
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second":
        out[part.type] = Number(part.value);
        break;
    }
  }
  if (out.hour === 24) out.hour = 0;
  return out;
}

function formattedOffsetMs(ms: number, timeZone: string): number {
  const w = formattedWallClock(ms, timeZone);
  return utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second) - ms;
}

// A zone's offset for a whole UTC day, remembered: the day's first and last second read the same
// offset, and no zone changes its offset twice within a day (zonedTimeToUtc relies on that too),
// so it holds all day. A day on which the offset changes is remembered as such (null) and read
// from the formatter instant by instant. A feasibility answer for 100 locations formats ~1,000
// instants in a handful of zone-days; ICU's formatter took most of its time.
const dayOffsets = new Map<string, number | null>();
const MAX_DAY_OFFSETS = 20_000;
/** Instants beyond this (near the Date range's ±8.64e15 ms) go to the formatter: ms + offset must stay a date. */
const CACHED_WITHIN_MS = 8e15;

function dayOffsetMs(day: number, timeZone: string): number | null {
  const key = `${day}|${timeZone}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = formattedOffsetMs(day * DAY_MS, timeZone);
    offset = first === formattedOffsetMs((day + 1) * DAY_MS - 1000, timeZone) ? first : null;
    if (dayOffsets.size >= MAX_DAY_OFFSETS) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset;
}

function wallClock(ms: number, timeZone: string): WallClock {
  if (!Number.isFinite(ms)) throw new RangeError("Invalid Date");
  const offset = Math.abs(ms) < CACHED_WITHIN_MS ? dayOffsetMs(Math.floor(ms / DAY_MS), timeZone) : null;
  if (offset === null) return formattedWallClock(ms, timeZone);
  const wall = new Date(ms + offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The zone's UTC offset at an instant, in ms (east positive), to the second. */
function offsetMs(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second);
  // The formatter drops milliseconds, so compare against the instant truncated to the second.
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * ISO 8601 with the zone's offset at that instant ("2026-11-29T18:00:00+01:00"): the same instant
 * as toISOString(), written as the local clock there reads it. Whole seconds.
 */
export function localIsoString(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  const minuteMs = Math.floor(instant.getTime() / 60_000) * 60_000;
  const offsetMin = Math.round((utcMs(p.year, p.month, p.day, p.hour, p.minute) - minuteMs) / 60_000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const seconds = Math.floor((instant.getTime() - minuteMs) / 1000);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(seconds)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
