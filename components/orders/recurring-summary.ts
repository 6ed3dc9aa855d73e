// What the orders list and the order page say about a recurring order: when its next cycle falls
// (local date and window) and how far its cycles got — the latest one, and the one before it, so a
// new cycle's "0 of 2" does not hide that the previous cycle was delivered in full.
import type { Order, OrderAssignment } from "./types";

const nextDayFormat = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

export interface NextCycle {
  /** The cycle's local date, YYYY-MM-DD. */
  date: string;
  /** "Fri 27 Nov" */
  day: string;
  /** "18:00–21:00 local time", or the time of day when the order has no window ("daylight"). */
  window: string;
  /** 1-based, as people count cycles. */
  number: number;
}

/** The next cycle of an active recurring order in words; null for one-off or finished orders. */
export function nextCycleSummary(order: Pick<Order, "recurring" | "next_cycle" | "requirements">): NextCycle | null {
  if (!order.recurring?.enabled || !order.next_cycle) return null;
  const day = nextDayFormat.format(new Date(`${order.next_cycle.local_date}T00:00:00Z`));
  const window = order.recurring.time_window
    ? `${order.recurring.time_window.replace("-", "–")} local time`
    : (order.requirements.time_of_day ?? "daylight");
  return { date: order.next_cycle.local_date, day, window, number: order.next_cycle.index + 1 };
}

export interface CycleDelivery {
  /** 0-based cycle index. */
  index: number;
  /** Locations whose every angle's latest attempt in this cycle was delivered. */
  delivered: number;
  /** Locations dispatched in this cycle. */
  dispatched: number;
}

/** Per dispatched cycle, newest first: how many of its locations were delivered in full. */
export function cycleDeliveries(assignments: OrderAssignment[]): CycleDelivery[] {
  // cycle → location → angle → latest attempt
  const latest = new Map<number, Map<string, Map<string, OrderAssignment>>>();
  for (const a of assignments) {
    const locations = latest.get(a.cycle_index) ?? new Map<string, Map<string, OrderAssignment>>();
    latest.set(a.cycle_index, locations);
    const angles = locations.get(a.location_id) ?? new Map<string, OrderAssignment>();
    locations.set(a.location_id, angles);
    const seen = angles.get(a.angle);
    if (!seen || a.attempt > seen.attempt || (a.attempt === seen.attempt && a.created_at > seen.created_at)) angles.set(a.angle, a);
  }
  return [...latest.entries()]
    .map(([index, locations]) => ({
      index,
      dispatched: locations.size,
      delivered: [...locations.values()].filter((angles) => [...angles.values()].every((t) => t.status === "verified" && t.delivered_at !== null)).length,
    }))
    .sort((a, b) => b.index - a.index);
}

/** "Cycle 3: 0 of 2 delivered · cycle 2: 2 of 2", or null before the first cycle was dispatched. */
export function recurringProgressText(cycles: CycleDelivery[]): string | null {
  const [current, previous] = cycles;
  if (!current) return null;
  const now = `Cycle ${current.index + 1}: ${current.delivered} of ${current.dispatched} delivered`;
  return previous ? `${now} · cycle ${previous.index + 1}: ${previous.delivered} of ${previous.dispatched}` : now;
}
