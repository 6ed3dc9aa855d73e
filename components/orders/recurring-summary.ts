// What the orders list and the order page say about a recurring order: when its next cycle falls
// (local date and window) and how far its cycles got — the latest one, and the one before it, so a
// new cycle's "0 of 2" does not hide that the previous cycle was delivered in full. Words from the
// `orders` catalogue, dates and clocks in the reader's locale (./translate.ts).
import type { Order, OrderAssignment } from "./types";
import { formatClock, formatLocalDate, type Translate, type Words } from "./translate";

export interface NextCycle {
  /** The cycle's local date, YYYY-MM-DD. */
  date: string;
  /** "Fri 27 Nov" / "Fr., 27. Nov." */
  day: string;
  /** "18:00–21:00 local time" on the reader's clock, or the time of day when the order has no window ("daylight"). */
  window: string;
  /** 1-based, as people count cycles. */
  number: number;
}

/** The next cycle of an active recurring order in words; null for one-off or finished orders. */
export function nextCycleSummary(order: Pick<Order, "recurring" | "next_cycle" | "requirements">, { t, vocabulary, locale }: Words): NextCycle | null {
  if (!order.recurring?.enabled || !order.next_cycle) return null;
  const day = formatLocalDate(order.next_cycle.local_date, locale);
  return {
    date: order.next_cycle.local_date,
    day,
    window: windowWords(order.recurring.time_window, order.requirements.time_of_day, { t, vocabulary, locale }),
    number: order.next_cycle.index + 1,
  };
}

/** A cycle's window ("18:00-21:00") as "18:00–21:00 local time" on the reader's clock, else the time of day's name. */
export function windowWords(timeWindow: string | undefined, timeOfDay: string | null | undefined, { t, vocabulary, locale }: Words): string {
  const [start, end] = timeWindow?.split("-") ?? [];
  if (start && end) return t("cycles.localWindow", { start: formatClock(start, locale), end: formatClock(end, locale) });
  return vocabulary(`timeOfDayName.${timeOfDay ?? "daylight"}`);
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
export function recurringProgressText(cycles: CycleDelivery[], t: Translate): string | null {
  const [current, previous] = cycles;
  if (!current) return null;
  const now = t("cycles.progress", { cycle: current.index + 1, delivered: current.delivered, dispatched: current.dispatched });
  return previous
    ? t("cycles.progressWithPrevious", { now, previous: previous.index + 1, delivered: previous.delivered, dispatched: previous.dispatched })
    : now;
}
