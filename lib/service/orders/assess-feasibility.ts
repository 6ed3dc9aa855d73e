// POST /orders/feasibility: before any money moves, can each location of a create-order body be
// done, when could its photos next be taken, and by when would it be delivered — from the
// service's own history near it, or no estimate and why. Answers questions; refuses only bodies
// that are malformed. The quote asks the same of `estimateDelivery` for its delivery_estimate.
import type { SunPeriod } from "@/lib/geo/sun";
import { localIsoString, timeZoneAt } from "@/lib/geo/time-zone";
import { estimateLocation, estimateOrder, type DeliveryEstimate, type FeasibilityReason, type LocationEstimate } from "@/lib/orders/delivery-estimate";
import type { CreateOrderInput, Feasibility } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { mergeRequirements } from "./compute-quote";
import { readDeliveryHistory } from "./delivery-history";
import { validateRule, type RecurrenceRule } from "./cycles/cycle-calendar";
import { nextWindows, type NextWindows } from "./cycles/next-windows";
import { recurrenceRuleOf } from "./cycles/recurrence-rule-of";

/** How many next windows a location's answer lists. */
export const FEASIBILITY_WINDOWS = 5;

export interface EstimatedPlace {
  lat: number;
  lng: number;
  timeZone: string;
  timeOfDay?: SunPeriod;
}

export interface PlaceDelivery {
  windows: NextWindows;
  result: LocationEstimate;
  feasible: boolean;
}

// Sun times move about a minute per quarter degree: places asking for the sun share their windows
// within such a square (as the scheduler's cycles do), others within a zone and hemisphere.
const SUN_GRID_DEG = 0.25;

function windowKey(place: EstimatedPlace): string {
  const sun = place.timeOfDay ? `|${place.timeOfDay}|${Math.floor(place.lat / SUN_GRID_DEG)},${Math.floor(place.lng / SUN_GRID_DEG)}` : "";
  return `${place.timeZone}|${place.lat >= 0 ? "N" : "S"}${sun}`;
}

/**
 * Each place's next windows and estimate, and the order's estimate: the history of every place in
 * one query, the windows computed once per zone (and sun square). A place is feasible when it has a
 * window and a contributor active nearby; its estimate opens at once (one-off) or at its first
 * window (recurring), and a place without a window has none.
 */
export async function estimateDelivery(
  ctx: ServiceContext,
  { places, names, rule, now, windowCount }: { places: EstimatedPlace[]; names: string[]; rule: RecurrenceRule | null; now: Date; windowCount: number },
): Promise<{ places: PlaceDelivery[]; estimate: DeliveryEstimate | null; reasons: FeasibilityReason[] }> {
  const histories = await readDeliveryHistory(ctx.db, { places, now });
  const windowsByKey = new Map<string, NextWindows>();
  const delivered = places.map((place, i): PlaceDelivery => {
    const key = windowKey(place);
    const windows = windowsByKey.get(key) ?? nextWindows({ place, rule, now, count: windowCount });
    windowsByKey.set(key, windows);
    const history = histories[i] ?? { tasks: [], zoomers: [] };
    const first = windows.windows[0];
    const estimated = estimateLocation({ tasks: history.tasks, zoomers: history.zoomers, opensAt: rule && first ? first.start : now });
    const result: LocationEstimate = first ? estimated : { ...estimated, estimate: null, taskIds: [], zoomerIds: [] };
    return { windows, result: { ...result, reasons: [...windows.reasons, ...result.reasons] }, feasible: first !== undefined && history.zoomers.length > 0 };
  });
  const order = estimateOrder(delivered.map((d, i) => ({ name: names[i] ?? "", result: d.result })));
  return { places: delivered, ...order };
}

/** The body's recurrence as a rule, refused (422) only when it is malformed, not when it has no cycle left. */
export function checkedRule(input: CreateOrderInput): RecurrenceRule | null {
  const rule = recurrenceRuleOf(input.recurring);
  const problems = rule ? validateRule(rule) : [];
  if (problems.length > 0) {
    throw new ApiError(422, "validation_failed", "The recurrence is not valid; see errors[].", {
      errors: problems.map((message) => ({ pointer: "/recurring", in: "body" as const, message })),
    });
  }
  return rule;
}

function timeOfDayOf(value: string | undefined): SunPeriod | undefined {
  return value === "daylight" || value === "midday" || value === "evening" ? value : undefined;
}

/** POST /orders/feasibility: the create-order body in, each location's feasibility, windows and estimate out, in request order. */
export async function assessFeasibility(ctx: ServiceContext, { input, now = new Date() }: { input: CreateOrderInput; now?: Date }): Promise<Feasibility> {
  const rule = checkedRule(input);
  const locations = input.locations.map((location) => {
    const { lat, lng } = location.coordinates;
    const timeZone = timeZoneAt(lat, lng);
    const timeOfDay = timeOfDayOf(mergeRequirements(input.requirements, location.requirements).time_of_day);
    return { location_id: location.location_id ?? null, name: location.name, place: { lat, lng, timeZone, ...(timeOfDay ? { timeOfDay } : {}) } };
  });
  const delivery = await estimateDelivery(ctx, {
    places: locations.map((l) => l.place),
    names: locations.map((l) => l.name),
    rule,
    now,
    windowCount: FEASIBILITY_WINDOWS,
  });
  const answers = locations.map((location, i) => {
    const planned = delivery.places[i];
    return {
      location_id: location.location_id,
      name: location.name,
      feasible: planned?.feasible ?? false,
      reasons: planned?.result.reasons ?? [],
      next_windows: (planned?.windows.windows ?? []).map((w) => ({
        start: localIsoString(w.start, location.place.timeZone),
        end: localIsoString(w.end, location.place.timeZone),
      })),
      estimate: planned?.result.estimate ?? null,
    };
  });
  return {
    feasible: answers.every((a) => a.feasible),
    locations: answers,
    estimate: delivery.estimate,
    reasons: delivery.reasons,
    created_at: now.toISOString(),
  };
}
