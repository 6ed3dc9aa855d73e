/**
 * When photos could next be taken at a place for an order: up to `count` windows honouring the
 * time of day (the sun at that place), the recurrence's hours, weekday, season and event dates —
 * or, when there is none, why not (polar night, the sun never inside the hours, out of season…).
 *
 * Pure (no clock, no I/O), beside cycle-calendar whose cycles it reuses, so the feasibility answer
 * and the scheduler can never disagree about when a cycle is. Not in lib/orders because it needs
 * the sun and the time zones of lib/geo, which lib/orders does not import (layering.test.ts).
 */
import { sunriseSunset, type SunPeriod } from "@/lib/geo/sun";
import { localParts, zonedTimeToUtc } from "@/lib/geo/time-zone";
import type { FeasibilityReason } from "@/lib/orders/delivery-estimate";
import { nextCycles, scheduleProblems, sunWindowOn, type RecurrenceRule } from "./cycle-calendar";

export interface Window {
  start: Date;
  end: Date;
}

export interface WindowPlace {
  lat: number;
  lng: number;
  timeZone: string;
  timeOfDay?: SunPeriod;
}

/** A one-off order is dispatched at once: a window more than this many days ahead does not make it feasible. */
export const ONE_OFF_SEARCH_DAYS = 7;

/** How far ahead a reason looks for the day the sun allows the time of day again. */
const SUN_RETURN_SEARCH_DAYS = 200;

const DAY_MS = 86_400_000;

const PERIOD_WORDS: Record<SunPeriod, string> = { daylight: "in daylight", midday: "around midday", evening: "in the evening" };

export interface NextWindows {
  windows: Window[];
  /** Why there is no window; empty when there is one. */
  reasons: FeasibilityReason[];
}

/**
 * The next windows from `now`: for a one-off order (rule null) each day's sun window within
 * ONE_OFF_SEARCH_DAYS (or, asking no time of day, the whole of that span); for a recurring order
 * its cycles (monthly cycles split into the days their hours and the sun allow), a window already
 * open starting at `now`.
 *
 * @throws RangeError for an invalid rule or place (the body is validated first).
 */
export function nextWindows({ place, rule, now, count }: { place: WindowPlace; rule: RecurrenceRule | null; now: Date; count: number }): NextWindows {
  const windows = rule ? recurringWindows(place, rule, now, count) : oneOffWindows(place, now, count);
  if (windows.length > 0) return { windows, reasons: [] };
  return { windows, reasons: rule ? recurringReasons(place, rule, now) : [sunReason(place, now, null)] };
}

function clip(window: Window, now: Date): Window {
  return { start: window.start < now ? now : window.start, end: window.end };
}

function localDate(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

function oneOffWindows(place: WindowPlace, now: Date, count: number): Window[] {
  const horizon = new Date(now.getTime() + ONE_OFF_SEARCH_DAYS * DAY_MS);
  const period = place.timeOfDay;
  if (!period) return [{ start: now, end: horizon }];
  const out: Window[] = [];
  // From yesterday: an evening window may run past local midnight into today.
  for (let d = -1; d <= ONE_OFF_SEARCH_DAYS && out.length < count; d++) {
    const sun = sunWindowOn(period, localDate(new Date(now.getTime() + d * DAY_MS), place.timeZone), place);
    if (sun && sun.end > now && sun.start < horizon) out.push(clip(sun, now));
  }
  return out;
}

function recurringWindows(place: WindowPlace, rule: RecurrenceRule, now: Date, count: number): Window[] {
  const where = { lat: place.lat, lng: place.lng, timeZone: place.timeZone, ...(place.timeOfDay ? { timeOfDay: place.timeOfDay } : {}) };
  if (rule.frequency !== "monthly" || rule.event_nights_only) {
    return nextCycles(rule, where, { from: now, count }).map((c) => clip({ start: new Date(c.starts_at), end: new Date(c.ends_at) }, now));
  }
  // A monthly cycle spans weeks, but its photos must still fall in the hours and the sun asked
  // for: the windows are the days inside the cycle, as a daily rule with the same hours has them.
  const daily: RecurrenceRule = {
    frequency: "daily",
    ...(rule.time_window ? { time_window: rule.time_window } : {}),
    ...(rule.season ? { season: rule.season } : {}),
  };
  const out: Window[] = [];
  for (const cycle of nextCycles(rule, { lat: place.lat, lng: place.lng, timeZone: place.timeZone }, { from: now, count: 3 })) {
    const start = new Date(Math.max(Date.parse(cycle.starts_at), now.getTime()));
    const end = new Date(cycle.ends_at);
    for (const day of nextCycles(daily, where, { from: start, count: count - out.length, anchor: start })) {
      const window = { start: new Date(Math.max(Date.parse(day.starts_at), start.getTime())), end: new Date(Math.min(Date.parse(day.ends_at), end.getTime())) };
      if (window.start >= end) break;
      if (window.end > window.start) out.push(window);
    }
    if (out.length >= count) break;
  }
  return out.slice(0, count);
}

/** Polar night or midnight sun on `date` (local) when the time of day cannot be met then; else null. */
function polarReason(place: WindowPlace, date: string): FeasibilityReason | null {
  const period = place.timeOfDay;
  if (!period || period === "midday") return null;
  const day = sunriseSunset(zonedTimeToUtc(date, "12:00", place.timeZone), place.lat, place.lng);
  const until = sunReturns(place, period, date);
  const params = { time_of_day: period, date, ...(until ? { until } : {}) };
  const back = until ? ` It can next be met on ${until}.` : "";
  if (day.polar === "night") {
    return {
      code: "polar_night",
      message: `The sun does not rise here on ${date} (polar night), so a photo cannot be taken ${PERIOD_WORDS[period]}.${back}`,
      params,
    };
  }
  if (day.polar === "day" && period === "evening") {
    return { code: "polar_day", message: `The sun does not set here on ${date} (midnight sun), so there is no evening.${back}`, params };
  }
  return null;
}

/** The first local date after `date` on which the sun allows `period`, within SUN_RETURN_SEARCH_DAYS. */
function sunReturns(place: WindowPlace, period: SunPeriod, date: string): string | null {
  const noon = zonedTimeToUtc(date, "12:00", place.timeZone).getTime();
  for (let d = 1; d <= SUN_RETURN_SEARCH_DAYS; d++) {
    const day = localDate(new Date(noon + d * DAY_MS), place.timeZone);
    if (sunWindowOn(period, day, place)) return day;
  }
  return null;
}

function sunReason(place: WindowPlace, now: Date, date: string | null): FeasibilityReason {
  const day = date ?? localDate(now, place.timeZone);
  return (
    polarReason(place, day) ?? {
      code: "no_window",
      message: `There is no time${place.timeOfDay ? ` ${PERIOD_WORDS[place.timeOfDay]}` : ""} to take the photos here in the next ${ONE_OFF_SEARCH_DAYS} days.`,
      params: { days: ONE_OFF_SEARCH_DAYS, ...(place.timeOfDay ? { time_of_day: place.timeOfDay } : {}) },
    }
  );
}

/** Each problem of the schedule as a reason with a stable code; the sun's own reason where it is the sun. */
function recurringReasons(place: WindowPlace, rule: RecurrenceRule, now: Date): FeasibilityReason[] {
  const where = { lat: place.lat, lng: place.lng, timeZone: place.timeZone, ...(place.timeOfDay ? { timeOfDay: place.timeOfDay } : {}) };
  const problems = scheduleProblems(rule, where, now);
  const reasons = problems.map((problem): FeasibilityReason => {
    const params = { pointer: problem.pointer };
    if (problem.kind === "date_window") return { code: "event_date_out_of_range", message: problem.message, params };
    if (problem.pointer === "/recurring/season")
      return { code: "outside_season", message: problem.message, params: { ...params, season: rule.season ?? "all_year" } };
    if (problem.pointer === "/recurring/day_of_week")
      return { code: "not_on_weekday", message: problem.message, params: { ...params, day_of_week: rule.day_of_week ?? 1 } };
    const event = /^\/recurring\/event_dates\/(\d+)$/.exec(problem.pointer);
    const date = event ? rule.event_dates?.[Number(event[1])] : undefined;
    const polar = place.timeOfDay ? polarReason(place, date ?? localDate(now, place.timeZone)) : null;
    if (polar) return { ...polar, params: { ...polar.params, ...params } };
    if (problem.pointer === "/recurring/time_window" && place.timeOfDay) {
      return {
        code: "sun_never_in_window",
        message: problem.message,
        params: { ...params, time_of_day: place.timeOfDay, time_window: rule.time_window ?? "" },
      };
    }
    if (date) return { code: "event_date_closed", message: problem.message, params: { ...params, date } };
    return { code: "no_window", message: problem.message, params };
  });
  // Several event dates lost to the same polar night say it once.
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = r.code === "polar_night" || r.code === "polar_day" ? r.code : `${r.code}|${r.params.pointer ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
