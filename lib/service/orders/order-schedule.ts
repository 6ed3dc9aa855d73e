// A recurring order's cycles across its locations. Each location keeps the order's cycle numbers
// but its own time zone and hemisphere: cycle N is the same local date everywhere, its window in
// each location's local time, and a location out of season simply has no cycle N.
import type { OrderLocationRow } from "./order-rows";
import { cycleAt, nextCycles, type Cycle, type RecurrenceRule } from "./schedule";

export interface LocationCycle {
  locationId: string;
  cycle: Cycle;
}

interface Group {
  key: string;
  where: { lat: number; lng: number; timeZone: string };
  locationIds: string[];
}

/** Locations that share a time zone and a hemisphere share their cycles' instants and seasons. */
function groupsOf(locations: Pick<OrderLocationRow, "id" | "lat" | "lng" | "timeZone">[]): Group[] {
  const groups = new Map<string, Group>();
  for (const l of locations) {
    const key = `${l.timeZone}|${l.lat >= 0 ? "N" : "S"}`;
    const group = groups.get(key);
    if (group) group.locationIds.push(l.id);
    else groups.set(key, { key, where: { lat: l.lat, lng: l.lng, timeZone: l.timeZone }, locationIds: [l.id] });
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
export function orderCycleAt(rule: RecurrenceRule, locations: OrderLocationRow[], index: number, anchor: Date): OrderCycle | null {
  const windows = groupsOf(locations).flatMap((group) => {
    const cycle = cycleAt(rule, group.where, index, anchor);
    return cycle ? [{ group, cycle }] : [];
  });
  return combine(index, windows);
}

/** The order's next `count` cycles that have not ended by `from`, merged across locations. */
export function nextOrderCycles(
  rule: RecurrenceRule,
  locations: Pick<OrderLocationRow, "id" | "lat" | "lng" | "timeZone">[],
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

/** Each location's own window in a cycle. */
export function locationCycles(cycle: OrderCycle): LocationCycle[] {
  return cycle.windows.flatMap(({ group, cycle: c }) => group.locationIds.map((locationId) => ({ locationId, cycle: c })));
}
