// A recurring order's cycles across its locations. Each location keeps the order's cycle numbers
// but its own time zone and hemisphere: cycle N is the same local date everywhere, its window in
// each location's local time, and a location out of season simply has no cycle N. A location that
// asks for a time of day has its windows narrowed to the sun's at its own place.
import type { SunPeriod } from "@/lib/geo/sun";
import { cycleAt, nextCycles, scheduleProblems, type Cycle, type RecurrenceRule, type ScheduleProblem } from "./cycle-calendar";

export interface LocationCycle {
  locationId: string;
  cycle: Cycle;
}

/** What the schedule needs of a location: where it is, and the time of day it asks for. */
export interface ScheduledLocation {
  id: string;
  lat: number;
  lng: number;
  timeZone: string;
  /** Its merged requirements; only `time_of_day` is read. */
  requirements?: unknown;
}

interface Group {
  key: string;
  where: { lat: number; lng: number; timeZone: string; timeOfDay?: SunPeriod };
  locationIds: string[];
}

// Sun times move about a minute per quarter degree of longitude: locations that ask for the sun
// share a group (and one sun computation per day) within such a square, not across a time zone.
const SUN_GRID_DEG = 0.25;

function timeOfDayOf(requirements: unknown): SunPeriod | undefined {
  if (typeof requirements !== "object" || requirements === null || !("time_of_day" in requirements)) return undefined;
  const value = requirements.time_of_day;
  return value === "daylight" || value === "midday" || value === "evening" ? value : undefined;
}

/** Locations that share a time zone and a hemisphere (and, asking for the sun, a grid square) share their cycles. */
function groupsOf(locations: ScheduledLocation[]): Group[] {
  const groups = new Map<string, Group>();
  for (const l of locations) {
    const timeOfDay = timeOfDayOf(l.requirements);
    const sun = timeOfDay ? `|${timeOfDay}|${Math.floor(l.lat / SUN_GRID_DEG)},${Math.floor(l.lng / SUN_GRID_DEG)}` : "";
    const key = `${l.timeZone}|${l.lat >= 0 ? "N" : "S"}${sun}`;
    const group = groups.get(key);
    if (group) group.locationIds.push(l.id);
    else groups.set(key, { key, where: { lat: l.lat, lng: l.lng, timeZone: l.timeZone, ...(timeOfDay ? { timeOfDay } : {}) }, locationIds: [l.id] });
  }
  return [...groups.values()];
}

export interface OrderCycle {
  index: number;
  localDate: string;
  /** The earliest dispatch time over the order's time zones: the scheduler runs the cycle then. */
  dispatchAt: Date;
  windows: { group: Group; cycle: Cycle }[];
}

function combine(index: number, windows: { group: Group; cycle: Cycle }[]): OrderCycle | null {
  const [first] = windows;
  if (!first) return null;
  const dispatchAt = new Date(Math.min(...windows.map((w) => Date.parse(w.cycle.dispatch_at))));
  return { index, localDate: first.cycle.local_date, dispatchAt, windows };
}

/** Cycle `index` of the order at every location that has one; null when none has. */
export function orderCycleAt(rule: RecurrenceRule, locations: ScheduledLocation[], index: number, anchor: Date): OrderCycle | null {
  const windows = groupsOf(locations).flatMap((group) => {
    const cycle = cycleAt(rule, group.where, index, anchor);
    return cycle ? [{ group, cycle }] : [];
  });
  return combine(index, windows);
}

/** The order's next `count` cycles that have not ended by `from`, merged across locations. */
export function nextOrderCycles(
  rule: RecurrenceRule,
  locations: ScheduledLocation[],
  options: { from: Date; count: number; anchor: Date; afterIndex?: number },
): OrderCycle[] {
  const byIndex = new Map<number, { group: Group; cycle: Cycle }[]>();
  for (const group of groupsOf(locations)) {
    for (const cycle of nextCycles(rule, group.where, { from: options.from, count: options.count + 1, anchor: options.anchor })) {
      if (options.afterIndex !== undefined && cycle.index <= options.afterIndex) continue;
      const list = byIndex.get(cycle.index) ?? [];
      list.push({ group, cycle });
      byIndex.set(cycle.index, list);
    }
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .slice(0, options.count)
    .flatMap(([index, windows]) => {
      const combined = combine(index, windows);
      return combined ? [combined] : [];
    });
}

/**
 * Why an order about to be created or quoted at `now` could not run: event dates outside their
 * window at any location, or — when no location has a cycle left — what empties the schedule (as
 * the first location that asks explains it). Empty when the order has a cycle to run.
 */
export function orderScheduleProblems(rule: RecurrenceRule, locations: ScheduledLocation[], now: Date): ScheduleProblem[] {
  const seen = new Map<string, ScheduleProblem>();
  let runs = false;
  for (const group of groupsOf(locations)) {
    const problems = scheduleProblems(rule, group.where, now);
    if (problems.length === 0) runs = true;
    for (const problem of problems) if (!seen.has(problem.pointer)) seen.set(problem.pointer, problem);
  }
  const dated = [...seen.values()].filter((p) => p.kind === "date_window");
  if (dated.length > 0) return dated;
  return runs ? [] : [...seen.values()];
}

/** Each location's own window in a cycle. */
export function locationCycles(cycle: OrderCycle): LocationCycle[] {
  return cycle.windows.flatMap(({ group, cycle: c }) => group.locationIds.map((locationId) => ({ locationId, cycle: c })));
}
