/**
 * The cycles of a recurring order: when each one opens, closes and should be dispatched, in
 * UTC, from a rule written in the location's local time.
 *
 * Pure (no clock, no database): the scheduler passes `from` and the order's confirmation time
 * (`anchor`). Every cycle carries an index derived from the rule and the anchor alone, so a
 * scheduler that stores "last dispatched index" and restarts recomputes exactly the same cycles
 * — none skipped, none doubled — whenever it asks.
 */
import { daysInMonth, isoWeekday, isValidTimeZone, localParts, parseLocalDate, timeZoneAt, utcMs, zonedTimeToUtc } from "@/lib/geo/time-zone";
import { sunWindow, type SunPeriod } from "@/lib/geo/sun";
import { ENGLISH_SCHEDULE_WORDS } from "./english-schedule-words";
import { describeRecurrence, listEventDates } from "@/lib/orders/describe-recurrence";
import { FREQUENCIES, SEASONS, WEEKDAYS, parseDayOfMonth, parseTimeWindow, type Frequency, type Season } from "@/lib/orders/recurrence-rule";

export { FREQUENCIES, SEASONS, parseDayOfMonth, parseTimeWindow, type Frequency, type Season };

export interface RecurrenceRule {
  frequency: Frequency;
  /** ISO 1 (Monday) … 7 (Sunday); weekly only; default 1. */
  day_of_week?: number;
  /** Day of month 2–31 the photos are due before (local 00:00 of that day); monthly only.
   * A month shorter than that uses its last day. Default: the end of the month. */
  deliver_before?: number;
  /** summer_only = June–August north of the equator (lat >= 0), December–February south of it;
   * winter_only the opposite months. */
  season?: Season;
  /** "HH:MM-HH:MM" local time; an end at or before the start means the window ends the next day. */
  time_window?: string;
  event_nights_only?: boolean;
  /** "YYYY-MM-DD" local dates; with event_nights_only the cycles are these dates, those of them
   * the season and (weekly, when given) day_of_week allow. */
  event_dates?: string[];
}

export interface Cycle {
  /** Stable cycle number from the rule and the anchor (see cycleIndex below). */
  index: number;
  /** The cycle's local date; for monthly cycles the 1st of the month. */
  local_date: string;
  /** ISO UTC: the first moment photos may be taken. */
  starts_at: string;
  /** ISO UTC: when the cycle closes (window end, end of the local day, or the monthly deadline). */
  ends_at: string;
  /** ISO UTC: when to dispatch this cycle's missions; never before the anchor. */
  dispatch_at: string;
  time_zone: string;
  local_window: string | null;
  crosses_midnight: boolean;
}

export interface Where {
  lat: number;
  lng: number;
  /** The zone stored with the order; looked up from lat/lng when absent. */
  timeZone?: string;
  /** The location's `requirements.time_of_day`: each daily, weekly or event cycle is narrowed to
   * the time the sun allows that day at this point (see sunWindow), and a day without any has no
   * cycle. Monthly cycles span weeks and are not narrowed. */
  timeOfDay?: SunPeriod;
}

/** How many cycles one call may return: a year of daily cycles. */
export const MAX_CYCLES = 366;

// A rule whose dates never come (an empty season, say) must not make the search run forever;
// three years covers every real recurrence several times over.
const SEARCH_DAYS = 3 * 366;

// Zoomers need notice: daily, weekly and event cycles go out a day before they open.
const DISPATCH_LEAD_MS = 24 * 3_600_000;

/** Event dates may lie from the location's local today up to this many days ahead (two years). */
export const EVENT_DATE_HORIZON_DAYS = 2 * 365;

/** Every problem with a rule, as sentences a partner can act on; empty when the rule is usable. */
export function validateRule(rule: RecurrenceRule): string[] {
  const problems: string[] = [];
  if (!(FREQUENCIES as readonly string[]).includes(rule.frequency)) {
    problems.push(`frequency must be one of ${FREQUENCIES.join(", ")}`);
  }
  if (rule.day_of_week !== undefined) {
    if (rule.frequency !== "weekly") problems.push("day_of_week applies to weekly orders only");
    else if (!Number.isInteger(rule.day_of_week) || rule.day_of_week < 1 || rule.day_of_week > 7) {
      problems.push("day_of_week must be an ISO weekday, 1 (Monday) to 7 (Sunday)");
    }
  }
  if (rule.deliver_before !== undefined) {
    if (rule.frequency !== "monthly") problems.push("deliver_before applies to monthly orders only");
    else if (!Number.isInteger(rule.deliver_before) || rule.deliver_before < 2 || rule.deliver_before > 31) {
      // "Before the 1st" would leave no time at all in a cycle that opens on the 1st.
      problems.push("deliver_before must be a day of the month from 2 to 31 (omit it for the end of the month)");
    }
  }
  if (rule.season !== undefined && !(SEASONS as readonly string[]).includes(rule.season)) {
    problems.push(`season must be one of ${SEASONS.join(", ")}`);
  }
  if (rule.time_window !== undefined && !parseTimeWindow(rule.time_window)) {
    problems.push("time_window must be HH:MM-HH:MM between 00:00 and 23:59, with different start and end");
  }
  if (rule.event_dates !== undefined) {
    const bad = rule.event_dates.filter((d) => !parseLocalDate(d));
    if (bad.length > 0) problems.push(`event_dates must be calendar dates YYYY-MM-DD (not ${bad.join(", ")})`);
  }
  return problems;
}

/**
 * The next cycles that have not ended by `from` (nor by `anchor`), in order, at most `count`
 * (capped at MAX_CYCLES), searching at most about three years ahead.
 *
 * @param options.anchor the order's confirmation time, which fixes the cycle numbering; defaults
 *   to `from`, which is right only for a preview before the order exists.
 * @throws RangeError for an invalid rule, point, zone or date.
 */
export function nextCycles(rule: RecurrenceRule, where: Where, options: { from: Date; count: number; anchor?: Date }): Cycle[] {
  const { from, count } = options;
  const anchor = options.anchor ?? from;
  if (Number.isNaN(count)) throw new RangeError("count must be a number");
  const ctx = contextFor(rule, where, anchor);
  assertDate(from, "from");
  const limit = Math.min(MAX_CYCLES, Math.max(0, Math.floor(count)));
  const after = Math.max(from.getTime(), anchor.getTime());
  const out: Cycle[] = [];
  if (limit === 0) return out;

  if (ctx.events) {
    for (let i = 0; i < ctx.events.length && out.length < limit; i++) {
      const c = buildCycle(ctx, i);
      if (c && Date.parse(c.ends_at) > after) out.push(c);
    }
    return out;
  }

  // Start one local day early: a window past midnight that opened yesterday may still be open.
  const fromDay = dayNumberAt(new Date(after), ctx.timeZone) - 1;
  const lastDay = fromDay + SEARCH_DAYS;
  for (let i = Math.max(0, indexOfDay(ctx, fromDay)); out.length < limit; i++) {
    const day = firstDayOf(ctx, i);
    if (day > lastDay) break;
    const c = buildCycle(ctx, i);
    if (c && Date.parse(c.ends_at) > after) out.push(c);
  }
  return out;
}

/**
 * The cycle with this index, or null when there is none: out of season, past the end of the
 * event list, a negative index, a window lost in a DST gap, or a cycle that had already ended
 * when the order was confirmed.
 * Equal, field for field, to the cycle `nextCycles` returns with that index and anchor.
 */
export function cycleAt(rule: RecurrenceRule, where: Where, index: number, anchor: Date): Cycle | null {
  const ctx = contextFor(rule, where, anchor);
  if (!Number.isSafeInteger(index) || index < 0) return null;
  if (ctx.events && index >= ctx.events.length) return null;
  const c = buildCycle(ctx, index);
  return c && Date.parse(c.ends_at) > anchor.getTime() ? c : null;
}

/**
 * When on local date `date` the sun is right for `period` at a point (lib/geo/sun's sunWindow),
 * in whole minutes inside the sun's span so that it reads as the zoomer's clock does; null when the
 * sun allows no time that day (daylight in polar night, say). Cycles are narrowed to it, and the
 * field task card states it.
 */
export function sunWindowOn(period: SunPeriod, date: string, where: { lat: number; lng: number; timeZone: string }): { start: Date; end: Date } | null {
  const key = `${period}|${date}|${where.lat}|${where.lng}|${where.timeZone}`;
  let minutes = sunMemo.get(key);
  if (minutes === undefined) {
    const sun = sunWindow(period, zonedTimeToUtc(date, "12:00", where.timeZone), where.lat, where.lng);
    minutes = sun ? { start: Math.ceil(sun.start.getTime() / 60_000) * 60_000, end: Math.floor(sun.end.getTime() / 60_000) * 60_000 } : null;
    if (sunMemo.size >= SUN_MEMO_SIZE) sunMemo.delete(sunMemo.keys().next().value ?? key);
    sunMemo.set(key, minutes);
  }
  // Fresh Dates every time: a caller may keep or change what it gets.
  return minutes && { start: new Date(minutes.start), end: new Date(minutes.end) };
}

// A place's sun on a local day never changes, and each answer costs astronomy searches (about
// 0.6 ms): remembered, the oldest forgotten first, so a quote, the feasibility answer, the order
// created from them, each cycle the scheduler builds and a field list of many tasks at the same
// places cost a lookup after the first time.
const SUN_MEMO_SIZE = 5000;
const sunMemo = new Map<string, { start: number; end: number } | null>();

/** A reason a rule has no cycle left, at the member of the API's `recurring` body that causes it. */
export interface ScheduleProblem {
  /** `date_window`: an event date outside today … two years ahead; `no_cycle_left`: what empties the schedule. */
  kind: "date_window" | "no_cycle_left";
  /** JSON pointer below the create-order body, e.g. "/recurring/event_dates/0". */
  pointer: string;
  message: string;
}

/**
 * What stops a rule from running at `where`, judged at `now`: event dates outside the window
 * (the location's local today up to EVENT_DATE_HORIZON_DAYS ahead), each at its own pointer; then,
 * when no cycle is left, the member that empties the schedule — the season or the weekday that
 * excludes every event date, an event date whose window has already closed, or the time window
 * (or the sun's) that no day has. Empty when the rule has a cycle to run.
 *
 * @throws RangeError for an invalid rule, point or zone (validateRule comes first).
 */
export function scheduleProblems(rule: RecurrenceRule, where: Where, now: Date): ScheduleProblem[] {
  const ctx = contextFor(rule, where, now);
  const problems: ScheduleProblem[] = [];
  if (rule.event_nights_only) {
    const today = dayNumberAt(now, ctx.timeZone);
    const last = today + EVENT_DATE_HORIZON_DAYS;
    (rule.event_dates ?? []).forEach((date, i) => {
      const p = parseLocalDate(date);
      const day = p ? dayNumber(p.year, p.month, p.day) : NaN;
      if (!(day >= today)) {
        problems.push({
          kind: "date_window",
          pointer: `/recurring/event_dates/${i}`,
          message: `${date} is in the past: event dates run from today (${isoDate(today)} in ${ctx.timeZone}) to ${isoDate(last)}.`,
        });
      } else if (day > last) {
        problems.push({
          kind: "date_window",
          pointer: `/recurring/event_dates/${i}`,
          message: `${date} is more than two years ahead: event dates run from today (${isoDate(today)} in ${ctx.timeZone}) to ${isoDate(last)}.`,
        });
      }
    });
    if (problems.length > 0) return problems;
  }
  if (nextCycles(rule, where, { from: now, count: 1 }).length > 0) return [];
  if (!ctx.events) {
    return [
      rule.time_window !== undefined
        ? {
            kind: "no_cycle_left",
            pointer: "/recurring/time_window",
            message: `No ${describeRule(rule, where)} cycle has any time to take the photos in the next three years${ctx.timeOfDay ? ` with the sun as time_of_day "${ctx.timeOfDay}" asks` : ""}.`,
          }
        : { kind: "no_cycle_left", pointer: "/recurring", message: `No cycle of "${describeRule(rule, where)}" falls in the next three years.` },
    ];
  }
  const bySeason = ctx.events.filter((d) => eventExclusion(ctx, d) === "season");
  const byWeekday = ctx.events.filter((d) => eventExclusion(ctx, d) === "day_of_week");
  if (bySeason.length > 0) {
    problems.push({
      kind: "no_cycle_left",
      pointer: "/recurring/season",
      message: `${rule.season} leaves out ${listDates(bySeason)} here: no event date is in season.`,
    });
  }
  if (byWeekday.length > 0) {
    const day = WEEKDAYS[(rule.day_of_week ?? 1) - 1] ?? "";
    problems.push({
      kind: "no_cycle_left",
      pointer: "/recurring/day_of_week",
      message: `A weekly order runs on ${day}s only, and ${listDates(byWeekday)} ${byWeekday.length === 1 ? "is not a" : "are not"} ${day}${byWeekday.length === 1 ? "" : "s"}.`,
    });
  }
  // The rest fall today or later but have no time left: their window (or the sun's) is closed.
  (rule.event_dates ?? []).forEach((date, i) => {
    if (eventExclusion(ctx, date) !== null) return;
    const closes = closingOf(ctx, date);
    problems.push({
      kind: "no_cycle_left",
      pointer: `/recurring/event_dates/${i}`,
      message: closes
        ? `${date}'s time to take photos ended at ${closes} (${ctx.timeZone}).`
        : `${date} has no time to take photos${ctx.timeOfDay ? ` with the sun as time_of_day "${ctx.timeOfDay}" asks` : " in its time window"}.`,
    });
  });
  return problems;
}

/**
 * The rule in plain English, e.g. "Every Friday, June to August, 18:00–21:00 local time": the
 * wizard's and the order pages' description (lib/orders/describe-recurrence) with the English
 * catalogue's words. Season months depend on the hemisphere, so they are named only when `where`
 * is given ("in summer" otherwise).
 */
export function describeRule(rule: RecurrenceRule, where?: { lat: number }): string {
  const problems = validateRule(rule);
  if (problems.length > 0) throw new RangeError(`Invalid recurrence rule: ${problems.join("; ")}`);
  return describeRecurrence(rule, ENGLISH_SCHEDULE_WORDS, where);
}

// ——— internals ———

interface Context {
  rule: RecurrenceRule;
  timeZone: string;
  south: boolean;
  lat: number;
  lng: number;
  timeOfDay: SunPeriod | null;
  window: { start: string; end: string; crossesMidnight: boolean } | null;
  /** Sorted, de-duplicated event dates when the rule is event nights only; null otherwise. */
  events: string[] | null;
  anchorMs: number;
  /** The anchor's local day number; for weekly rules, the Monday of the anchor's week. */
  anchorDay: number;
  /** The anchor's local month as year * 12 + (month − 1). */
  anchorMonth: number;
}

const LAST_DAY = Math.round(Date.UTC(9999, 11, 30) / 86_400_000);
const SUMMER_NORTH = new Set([6, 7, 8]);
const WINTER_NORTH = new Set([12, 1, 2]);

function contextFor(rule: RecurrenceRule, where: Where, anchor: Date): Context {
  const problems = validateRule(rule);
  if (problems.length > 0) throw new RangeError(`Invalid recurrence rule: ${problems.join("; ")}`);
  assertDate(anchor, "anchor");
  if (!Number.isFinite(where.lat) || Math.abs(where.lat) > 90) throw new RangeError(`Invalid latitude: ${where.lat}`);
  if (!Number.isFinite(where.lng) || Math.abs(where.lng) > 180) throw new RangeError(`Invalid longitude: ${where.lng}`);
  const timeZone = where.timeZone ?? timeZoneAt(where.lat, where.lng);
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone: ${timeZone}`);
  const day = dayNumberAt(anchor, timeZone);
  const p = localParts(anchor, timeZone);
  return {
    rule,
    timeZone,
    south: where.lat < 0,
    lat: where.lat,
    lng: where.lng,
    timeOfDay: where.timeOfDay ?? null,
    window: rule.time_window === undefined ? null : parseTimeWindow(rule.time_window),
    events: rule.event_nights_only ? eventDates(rule) : null,
    anchorMs: anchor.getTime(),
    anchorDay: rule.frequency === "weekly" ? day - (p.weekday - 1) : day,
    anchorMonth: p.year * 12 + (p.month - 1),
  };
}

function assertDate(d: Date, name: string): void {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new RangeError(`${name} must be a valid Date`);
}

function eventDates(rule: RecurrenceRule): string[] {
  // ISO dates sort correctly as strings.
  return [...new Set(rule.event_dates ?? [])].sort();
}

/**
 * Cycle `index` as the rule defines it, regardless of whether it ended before the anchor;
 * null when its date is out of season or its window does not exist that day.
 *
 * Index: daily = local days since the anchor's local date; weekly = weeks since the Monday of
 * the anchor's local week; monthly = months since the anchor's local month; events = position
 * in the sorted list.
 */
function buildCycle(ctx: Context, index: number): Cycle | null {
  const { rule, timeZone, window } = ctx;
  let date: string;
  if (ctx.events) {
    const d = ctx.events[index];
    if (d === undefined || eventExclusion(ctx, d) !== null) return null;
    date = d;
  } else {
    const day = firstDayOf(ctx, index);
    // Beyond what a YYYY-MM-DD date can say; no real order gets there.
    if (day > LAST_DAY) return null;
    date = isoDate(day);
    if (!inSeason(ctx, Number(date.slice(5, 7)))) return null;
  }

  let startsAt: Date;
  let endsAt: Date;
  let dispatchAt: Date;
  if (!ctx.events && rule.frequency === "monthly") {
    const month = ctx.anchorMonth + index;
    const year = Math.floor(month / 12);
    const m = (month % 12) + 1;
    startsAt = zonedTimeToUtc(date, window?.start ?? "00:00", timeZone);
    const due = rule.deliver_before === undefined ? null : Math.min(rule.deliver_before, daysInMonth(year, m));
    const dueDate = due === null ? isoDate(dayNumber(year, m, 1) + daysInMonth(year, m)) : isoDate(dayNumber(year, m, due));
    endsAt = zonedTimeToUtc(dueDate, "00:00", timeZone);
    // A monthly cycle spans weeks, so it goes out when the month begins rather than a day ahead.
    dispatchAt = zonedTimeToUtc(date, "00:00", timeZone);
  } else {
    const next = isoDate(dayNumberOf(date) + 1);
    startsAt = zonedTimeToUtc(date, window?.start ?? "00:00", timeZone);
    endsAt = window ? zonedTimeToUtc(window.crossesMidnight ? next : date, window.end, timeZone) : zonedTimeToUtc(next, "00:00", timeZone);
    dispatchAt = new Date(startsAt.getTime() - DISPATCH_LEAD_MS);
    if (ctx.timeOfDay) {
      // Only the part of the day the sun allows: a cycle never opens before it or outlives it.
      const sun = sunWindowOn(ctx.timeOfDay, date, { lat: ctx.lat, lng: ctx.lng, timeZone });
      if (!sun) return null;
      if (sun.start > startsAt) startsAt = sun.start;
      if (sun.end < endsAt) endsAt = sun.end;
    }
  }
  // A window that lies wholly inside a spring-forward gap (02:00-02:30 in Rome on the last
  // Sunday of March) does not happen that day: no cycle, rather than one nobody can meet.
  if (endsAt.getTime() <= startsAt.getTime()) return null;

  // Anchored to the confirmation time, not to whoever asks, so the cycle is the same value for
  // every caller; a scheduler treats a dispatch_at in its past as "due now".
  const dispatchMs = Math.max(dispatchAt.getTime(), ctx.anchorMs);

  return {
    index,
    local_date: date,
    starts_at: startsAt.toISOString(),
    ends_at: endsAt.toISOString(),
    dispatch_at: new Date(dispatchMs).toISOString(),
    time_zone: timeZone,
    local_window: window ? `${window.start}-${window.end}` : null,
    crosses_midnight: window?.crossesMidnight ?? false,
  };
}

/** Why an event date has no cycle whatever the clock says, or null when it has one. */
function eventExclusion(ctx: Context, date: string): "range" | "season" | "day_of_week" | null {
  const p = parseLocalDate(date);
  // Day numbers past 9999-12-30 have no next day to end on; such a date never comes.
  if (!p || dayNumber(p.year, p.month, p.day) > LAST_DAY) return "range";
  if (!inSeason(ctx, p.month)) return "season";
  // A weekday named with the dates narrows them; a weekly order without one runs on every date.
  const weekday = ctx.rule.frequency === "weekly" ? ctx.rule.day_of_week : undefined;
  if (weekday !== undefined && isoWeekday(p.year, p.month, p.day) !== weekday) return "day_of_week";
  return null;
}

function inSeason(ctx: Context, month: number): boolean {
  const season = ctx.rule.season ?? "all_year";
  if (season === "all_year") return true;
  const summer = ctx.south ? WINTER_NORTH : SUMMER_NORTH;
  const winter = ctx.south ? SUMMER_NORTH : WINTER_NORTH;
  return (season === "summer_only" ? summer : winter).has(month);
}

/** The local day number of cycle `index`'s date (its 1st for monthly rules). */
function firstDayOf(ctx: Context, index: number): number {
  switch (ctx.rule.frequency) {
    case "daily":
      return ctx.anchorDay + index;
    case "weekly":
      return ctx.anchorDay + 7 * index + ((ctx.rule.day_of_week ?? 1) - 1);
    case "monthly": {
      const month = ctx.anchorMonth + index;
      return dayNumber(Math.floor(month / 12), (month % 12) + 1, 1);
    }
  }
}

/** The index of the period (day, week or month) containing local day `day`. */
function indexOfDay(ctx: Context, day: number): number {
  switch (ctx.rule.frequency) {
    case "daily":
      return day - ctx.anchorDay;
    case "weekly":
      return Math.floor((day - ctx.anchorDay) / 7);
    case "monthly": {
      const d = new Date(day * 86_400_000);
      return d.getUTCFullYear() * 12 + d.getUTCMonth() - ctx.anchorMonth;
    }
  }
}

// Day numbers count calendar days since 1970-01-01, so date arithmetic never meets DST.
function dayNumber(year: number, month: number, day: number): number {
  return Math.round(utcMs(year, month, day) / 86_400_000);
}

function dayNumberOf(date: string): number {
  const d = parseLocalDate(date);
  if (!d) throw new RangeError(`Not a calendar date: ${date}`);
  return dayNumber(d.year, d.month, d.day);
}

function dayNumberAt(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  return dayNumber(p.year, p.month, p.day);
}

function isoDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** "16:40" local: when an event date's cycle (window and sun) closes; null when it has none. */
function closingOf(ctx: Context, date: string): string | null {
  const i = ctx.events?.indexOf(date) ?? -1;
  const cycle = i < 0 ? null : buildCycle(ctx, i);
  if (!cycle) return null;
  const p = localParts(new Date(cycle.ends_at), ctx.timeZone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
}

// "12 Jun, 13 Jun, 20 Jun 2027", as the description lists event dates.
function listDates(dates: string[]): string {
  return listEventDates(dates, ENGLISH_SCHEDULE_WORDS);
}
