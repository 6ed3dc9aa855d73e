// The demo's past: a month of the demo partner's one-off orders in Florence as the simulated
// contributor did them, so the delivery estimate near Florence rests on a real history from the
// first start and the on-time report has a month of figures. Pure and deterministic (one seeded
// sequence per UTC day): the same days always give the same orders, times and verdicts.
//
// The pace is the simulated contributor's: an order is placed during the day; each location is
// reached 2–30 hours after dispatch (most within half a day, a long tail), in Florence's daytime —
// a visit due at night waits for the morning; the angles are shot a few minutes apart, each
// verified within minutes; a first shot facing the wrong way (one in five) is retaken an hour or
// a few later. A location is delivered once every angle is verified. Its promise is the plan's
// delivery time or the estimate the history before it gave, whichever is later — so some are late.
import { distanceM } from "@/lib/geo/bearing";
import { estimateLocation, estimateOrder, type DeliveryEstimate, type FeasibilityReason, type PastTask } from "@/lib/orders/delivery-estimate";
import { locationPromise, type LocationPromise } from "@/lib/orders/delivery-promise";
import type { Angle } from "@/lib/orders/vocabulary";
import { DEMO_ONE_OFF_ORDERS } from "./demo-orders";
import { placeByKey, type FlorencePlace } from "./florence-places";
import { seededRandom } from "./seeded-random";

/** The history's orders' client references start with this: "demo-history-2026-11-27-1". */
export const HISTORY_REFERENCE = "demo-history";
/** Days of history the first start seeds. */
export const DEMO_HISTORY_DAYS = 30;
const SEED = 3407;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;
/** Florence's offset from UTC (CET; a summer hour makes the day an hour later, which is harmless here). */
const FLORENCE_UTC_OFFSET_H = 1;
/** The contributor's day in Florence: from 07:00 to 21:00 local time. */
const DAY_START_H = 7;
const DAY_END_H = 21;
/** A first shot taken facing the wrong way: retaken. */
const WRONG_WAY_RATE = 0.2;

export interface PastShot {
  angle: Angle;
  attempt: number;
  takenAt: Date;
  verifiedAt: Date;
  passed: boolean;
}

export interface PastLocation {
  place: FlorencePlace;
  angles: Angle[];
  shots: PastShot[];
  deliveredAt: Date;
  /** The promise stated before payment: the plan's delivery time or the estimate, whichever is later. */
  promise: LocationPromise;
  deliverBy: Date;
  /** The estimate's p90 at the time (hours), or null when the history before had too little. */
  estimateP90Hours: number | null;
}

export interface PastOrder {
  /** "demo-history-<UTC day>-<n>": the order's name in the orders list. */
  reference: string;
  placedAt: Date;
  description: string;
  /** The order's estimate as its quote stated it (null while the history before it was too thin). */
  estimate: DeliveryEstimate | null;
  estimateReasons: FeasibilityReason[];
  locations: PastLocation[];
  fulfilledAt: Date;
}

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** The instant moved into the contributor's next daytime in Florence when it falls at night. */
function inDaytime(at: Date, random: () => number): Date {
  const localHour = (at.getUTCHours() + at.getUTCMinutes() / 60 + FLORENCE_UTC_OFFSET_H + 24) % 24;
  if (localHour >= DAY_START_H && localHour < DAY_END_H) return at;
  const localMidnight = startOfUtcDay(new Date(at.getTime() + FLORENCE_UTC_OFFSET_H * HOUR)).getTime() - FLORENCE_UTC_OFFSET_H * HOUR;
  const morning = localMidnight + (localHour >= DAY_END_H ? DAY : 0) + DAY_START_H * HOUR;
  return new Date(morning + random() * 2.5 * HOUR);
}

/**
 * The orders placed on the UTC days from `from` (inclusive) to `to` (exclusive), each delivered
 * before `now` (an order still in the field at `now` is left out: it is not history yet).
 * `prior`: delivered tasks before `from` (the estimate at each order also rests on them).
 */
export function planDemoHistory({
  from,
  to,
  now,
  deliveryHours,
  prior = [],
}: {
  from: Date;
  to: Date;
  now: Date;
  deliveryHours: number;
  prior?: readonly {
    lat: number;
    lng: number;
    deliveredAt: Date;
    hours: number;
  }[];
}): PastOrder[] {
  const out: PastOrder[] = [];
  const delivered = [...prior];
  for (let day = startOfUtcDay(from).getTime(); day < to.getTime(); day += DAY) {
    const random = seededRandom(SEED + Math.floor(day / DAY));
    const count = 1 + (random() < 0.55 ? 1 : 0);
    // Placed in Florence's working day, earliest first.
    const times = Array.from({ length: count }, () => day + (8 - FLORENCE_UTC_OFFSET_H + random() * 10) * HOUR).sort((a, b) => a - b);
    for (const [n, time] of times.entries()) {
      const placedAt = new Date(Math.round(time / MINUTE) * MINUTE);
      const plan = DEMO_ONE_OFF_ORDERS[Math.floor(random() * DEMO_ONE_OFF_ORDERS.length)] ?? DEMO_ONE_OFF_ORDERS[0];
      if (!plan) continue;
      const visited = plan.places.map((key) => {
        const place = placeByKey(key);
        const angles = [...plan.angles];
        // Reached 2–30 h after dispatch, most within half a day.
        let at = inDaytime(new Date(placedAt.getTime() + (2 + 28 * random() ** 1.6) * HOUR), random);
        const shots: PastShot[] = [];
        for (const angle of angles) {
          at = new Date(at.getTime() + (2 + random() * 4) * MINUTE);
          const wrongWay = random() < WRONG_WAY_RATE;
          shots.push({
            angle,
            attempt: 0,
            takenAt: at,
            verifiedAt: new Date(at.getTime() + (1 + random() * 7) * MINUTE),
            passed: !wrongWay,
          });
          if (wrongWay) {
            const retakeAt = inDaytime(new Date(at.getTime() + (1 + random() * 4) * HOUR), random);
            shots.push({
              angle,
              attempt: 1,
              takenAt: retakeAt,
              verifiedAt: new Date(retakeAt.getTime() + (1 + random() * 7) * MINUTE),
              passed: true,
            });
          }
        }
        const deliveredAt = new Date(Math.max(...shots.map((s) => s.verifiedAt.getTime())) + MINUTE);
        // The estimate the quote stated: the history delivered before the order was placed.
        const before: PastTask[] = delivered
          .filter((d) => d.deliveredAt < placedAt)
          .sort((a, b) => b.deliveredAt.getTime() - a.deliveredAt.getTime())
          .map((d, i) => ({ id: String(i), hours: d.hours, distanceKm: distanceM(d, place) / 1000 }));
        const estimated = estimateLocation({ tasks: before, zoomers: [{ id: "demo", distanceKm: 0 }], opensAt: placedAt });
        return { place, angles, shots, deliveredAt, estimated };
      });
      // The order's estimate (its slowest location's) and each location's promise from it.
      const { estimate, reasons: estimateReasons } = estimateOrder(visited.map((l) => ({ name: l.place.name, result: l.estimated })));
      const planDeadline = new Date(placedAt.getTime() + deliveryHours * HOUR);
      const locations = visited.map(({ estimated, ...l }): PastLocation => {
        const promise = locationPromise({ estimate, planDeadline, opensAt: placedAt });
        return { ...l, promise, deliverBy: promise.deliverBy, estimateP90Hours: estimated.estimate?.p90_hours ?? null };
      });
      const fulfilledAt = new Date(Math.max(...locations.map((l) => l.deliveredAt.getTime())));
      if (fulfilledAt >= now) continue;
      for (const l of locations)
        delivered.push({
          lat: l.place.lat,
          lng: l.place.lng,
          deliveredAt: l.deliveredAt,
          hours: (l.deliveredAt.getTime() - placedAt.getTime()) / HOUR,
        });
      out.push({
        reference: `${HISTORY_REFERENCE}-${new Date(day).toISOString().slice(0, 10)}-${n + 1}`,
        placedAt,
        description: plan.description,
        locations,
        estimate,
        estimateReasons,
        fulfilledAt,
      });
    }
  }
  return out;
}
