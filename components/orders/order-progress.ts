// What an order's field work amounts to, for the order page: each location's state (waiting,
// assigned, verifying, waiting for your review, retake, delivered, given up) from its tasks, and the order's story as a
// timeline — created, confirmed, payments, cycles dispatched, retakes, deliveries, cancellation.
// Pure functions over the API's order and assignments (tests beside); the words come from the
// `orders` catalogue through the translator the page passes (./translate.ts). A state's name and
// meaning are orders.states.<state> and orders.stateDescriptions.<state>.
import type { Order, OrderAssignment } from "./types";
import { describePaymentMethod } from "./payment-method";
import type { Words } from "./translate";
import type { Localisable } from "@/lib/verification/place-checks";

/** In the order a location passes through them (the legend's order). */
export const LOCATION_STATES = ["waiting", "assigned", "verifying", "held", "retake", "delivered", "given_up"] as const;
export type LocationState = (typeof LOCATION_STATES)[number];

export interface LocationProgress {
  locationId: string;
  state: LocationState;
  cycleIndex: number | null;
  /** Per angle, the latest attempt's status in the latest cycle. */
  angles: { angle: string; status: OrderAssignment["status"]; attempt: number; late: boolean; delivered: boolean }[];
}

/**
 * A location's state in its latest cycle, from each angle's latest attempt: given up when any angle
 * was given up; delivered when every angle was; held while a photo waits for the account manager's
 * review (their move comes first: nothing else happens until they decide); retake while an angle
 * failed its checks or is on a retake attempt; verifying while a photo is submitted (or verified
 * and not yet delivered);
 * assigned while a photographer holds a task; waiting otherwise (nothing dispatched, or open).
 */
export function locationState(angles: { status: OrderAssignment["status"]; attempt: number; delivered: boolean }[]): LocationState {
  if (angles.length === 0) return "waiting";
  if (angles.some((a) => a.status === "given_up")) return "given_up";
  if (angles.every((a) => a.delivered)) return "delivered";
  const pending = angles.filter((a) => !a.delivered && a.status !== "cancelled");
  if (pending.some((a) => a.status === "held_for_review")) return "held";
  if (pending.some((a) => a.status === "failed" || a.attempt > 0)) return "retake";
  if (pending.some((a) => a.status === "submitted" || a.status === "verified")) return "verifying";
  if (pending.some((a) => a.status === "reserved")) return "assigned";
  return "waiting";
}

export function locationProgress(locationIds: string[], assignments: OrderAssignment[]): Map<string, LocationProgress> {
  const byLocation = new Map<string, OrderAssignment[]>();
  for (const a of assignments) {
    const list = byLocation.get(a.location_id) ?? [];
    list.push(a);
    byLocation.set(a.location_id, list);
  }
  const result = new Map<string, LocationProgress>();
  for (const locationId of locationIds) {
    const tasks = byLocation.get(locationId) ?? [];
    if (tasks.length === 0) {
      result.set(locationId, { locationId, state: "waiting", cycleIndex: null, angles: [] });
      continue;
    }
    const cycle = Math.max(...tasks.map((t) => t.cycle_index));
    const latest = new Map<string, OrderAssignment>();
    for (const t of tasks) {
      if (t.cycle_index !== cycle) continue;
      const seen = latest.get(t.angle);
      if (!seen || t.attempt > seen.attempt || (t.attempt === seen.attempt && t.created_at > seen.created_at)) latest.set(t.angle, t);
    }
    const angles = [...latest.values()].map((t) => ({
      angle: t.angle,
      status: t.status,
      attempt: t.attempt,
      late: t.late,
      delivered: t.delivered_at !== null && t.status === "verified",
    }));
    const state = locationState(angles);
    result.set(locationId, { locationId, state, cycleIndex: cycle, angles });
  }
  return result;
}

export function countStates(progress: Iterable<LocationProgress>): Record<LocationState, number> {
  const counts = Object.fromEntries(LOCATION_STATES.map((state) => [state, 0])) as Record<LocationState, number>;
  for (const p of progress) counts[p.state]++;
  return counts;
}

export type TimelineKind = "created" | "confirmed" | "charge" | "refund" | "payment_failed" | "dispatched" | "retake" | "delivered" | "cancelled";

const KIND_ORDER: TimelineKind[] = ["created", "confirmed", "charge", "payment_failed", "dispatched", "delivered", "retake", "refund", "cancelled"];

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  title: string;
  detail?: string;
  /** A retake's instructions as the API gives them: codes the page says in the reader's language, the English beside. */
  instructions?: { codes: Localisable[]; english: string[] };
}

export function formatMoney(cents: number, currency: string, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}

/** The order's story, oldest first, in the reader's words. */
export function orderTimeline(order: Order, assignments: OrderAssignment[], { t, vocabulary, locale }: Words): TimelineEntry[] {
  const names = new Map(order.locations.map((l) => [l.location_id, l.name]));
  const money = (cents: number, currency: string) => formatMoney(cents, currency, locale);
  const angleName = (angle: string) => vocabulary(`angle.${angle}`);
  const entries: TimelineEntry[] = [
    {
      at: order.created_at,
      kind: "created",
      title: t("timeline.created"),
      detail: t("timeline.createdDetail", { locations: order.locations.length, total: money(order.quote.total_cents, order.quote.currency) }),
    },
  ];
  if (order.confirmed_at) entries.push({ at: order.confirmed_at, kind: "confirmed", title: t("timeline.confirmed") });
  for (const p of order.payments) {
    const amount = money(p.amount_cents, p.currency);
    // ICU select: "cycle" reads "… for cycle 2", "none" nothing.
    const cycle = order.recurring && p.cycle_index !== null ? { hasCycle: "cycle", cycle: p.cycle_index + 1 } : { hasCycle: "none", cycle: 0 };
    if (p.kind === "refund") entries.push({ at: p.created_at, kind: "refund", title: t("timeline.refunded", { amount, ...cycle }) });
    else if (p.status === "succeeded")
      entries.push({
        at: p.created_at,
        kind: "charge",
        title: t("timeline.charged", { amount, ...cycle }),
        detail: describePaymentMethod(p.payment_method, t),
      });
    else if (p.status === "failed")
      entries.push({
        at: p.created_at,
        kind: "payment_failed",
        title: t("timeline.declined", { amount }),
        detail: p.failure_message ?? p.failure_code ?? undefined,
      });
    else entries.push({ at: p.created_at, kind: "charge", title: t("timeline.paymentStatus", { amount, status: t(`paymentStatus.${p.status}`) }) });
  }
  const cycles = new Map<number, { at: string; locations: Set<string>; tasks: number }>();
  const deliveries = new Map<string, { at: string; photos: number; name: string; cycle: number }>();
  for (const a of assignments) {
    if (a.attempt === 0) {
      const c = cycles.get(a.cycle_index) ?? { at: a.created_at, locations: new Set<string>(), tasks: 0 };
      if (a.created_at < c.at) c.at = a.created_at;
      c.locations.add(a.location_id);
      c.tasks++;
      cycles.set(a.cycle_index, c);
    } else {
      // The retake's instructions as codes (a reviewer's or partner's own words are a figure, shown as written), said by the page.
      entries.push({
        at: a.created_at,
        kind: "retake",
        title: t("timeline.retake", { name: names.get(a.location_id) ?? a.location_id, angle: angleName(a.angle) }),
        instructions: { codes: a.instruction_codes, english: a.instructions },
      });
    }
    if (a.delivered_at) {
      const key = `${a.cycle_index}:${a.location_id}:${a.delivered_at}`;
      const d = deliveries.get(key) ?? { at: a.delivered_at, photos: 0, name: names.get(a.location_id) ?? a.location_id, cycle: a.cycle_index };
      d.photos++;
      deliveries.set(key, d);
    }
  }
  for (const [index, c] of cycles) {
    const detail = t("timeline.dispatchedDetail", { locations: c.locations.size, photos: c.tasks });
    entries.push({
      at: c.at,
      kind: "dispatched",
      title: order.recurring ? t("timeline.cycleDispatched", { cycle: index + 1 }) : t("timeline.sentToField"),
      detail,
    });
  }
  for (const d of deliveries.values()) {
    const detail = order.recurring
      ? t("timeline.deliveredCycleDetail", { photos: d.photos, cycle: d.cycle + 1 })
      : t("timeline.deliveredDetail", { photos: d.photos });
    entries.push({ at: d.at, kind: "delivered", title: t("timeline.delivered", { name: d.name }), detail });
  }
  if (order.cancelled_at) entries.push({ at: order.cancelled_at, kind: "cancelled", title: t("timeline.cancelled"), detail: order.status_reason ?? undefined });
  // Same second: in the order things happen (confirmed, then charged, then sent to the field).
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)));
}
