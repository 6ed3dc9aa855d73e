// The delivery estimate of the feasibility answer and the quote: how long similar tasks near a
// place took, from opening to delivery, as quantiles of that sample and never a made-up figure.
// Pure (no clock, no database): the service reads the history and hands it in.

/** Search radii, narrowest first: the narrowest that holds enough history is the basis. */
export const ESTIMATE_RADII_KM = [25, 100] as const;

/** The widest radius: contributors farther away than this are not "nearby". */
export const MAX_ESTIMATE_RADIUS_KM = ESTIMATE_RADII_KM[ESTIMATE_RADII_KM.length - 1] ?? 100;

/** Fewer delivered tasks than this in the widest radius and no estimate is given: two points make no p90. */
export const MIN_SIMILAR_TASKS = 3;

/** At most this many of the most recent delivered tasks per location form its sample. */
export const MAX_SIMILAR_TASKS = 500;

/** History older than this is not read: the service and its contributors change. */
export const HISTORY_DAYS = 365;

/** Contributors count as nearby when they sent a photo within this many days. */
export const ACTIVE_ZOOMER_DAYS = 30;

/** One delivered location of an earlier order: hours from the task opening to its delivery. */
export interface PastTask {
  id: string;
  distanceKm: number;
  hours: number;
}

/** A contributor's nearest submission to the place in the last ACTIVE_ZOOMER_DAYS days. */
export interface NearbyZoomer {
  id: string;
  distanceKm: number;
}

export interface EstimateBasis {
  similar_tasks: number;
  zoomers_nearby_30d: number;
  radius_km: number;
}

export interface DeliveryEstimate {
  p50_hours: number;
  p90_hours: number;
  /** ISO 8601 (UTC): when the task opens plus p90_hours. */
  deliver_by: string;
  basis: EstimateBasis;
}

/** Why something cannot be done or estimated: a stable code, an English sentence and its figures. */
export interface FeasibilityReason {
  code: string;
  message: string;
  params: Record<string, string | number>;
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of a sample by linear interpolation between order statistics
 * (Hyndman & Fan type 7: the default of R, NumPy and PostgreSQL's percentile_cont), so the figure
 * is one a reader can recompute. Null for an empty sample.
 *
 * @throws RangeError when q is outside 0…1 or a value is not finite.
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`A quantile is between 0 and 1, not ${q}`);
  if (values.some((v) => !Number.isFinite(v))) throw new RangeError("Every value must be a finite number");
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] ?? low;
  return low + (high - low) * (position - below);
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export type LocationEstimate =
  | { estimate: DeliveryEstimate; reasons: FeasibilityReason[]; taskIds: string[]; zoomerIds: string[] }
  | { estimate: null; reasons: FeasibilityReason[]; taskIds: string[]; zoomerIds: string[] };

/**
 * A location's estimate from the history near it: the narrowest radius holding at least
 * MIN_SIMILAR_TASKS delivered tasks, its most recent MAX_SIMILAR_TASKS tasks, p50 and p90 of their
 * hours; `deliver_by` is `opensAt` + p90. No estimate (null and the reason) when even the widest
 * radius holds too few. `reasons` also says when no contributor was active nearby.
 *
 * @param tasks delivered tasks within MAX_ESTIMATE_RADIUS_KM, newest first.
 * @param zoomers contributors active within MAX_ESTIMATE_RADIUS_KM.
 */
export function estimateLocation({
  tasks,
  zoomers,
  opensAt,
}: {
  tasks: readonly PastTask[];
  zoomers: readonly NearbyZoomer[];
  opensAt: Date;
}): LocationEstimate {
  const reasons: FeasibilityReason[] = [];
  if (zoomers.length === 0) {
    reasons.push({
      code: "no_contributors_nearby",
      message: `No contributor has sent a photo within ${MAX_ESTIMATE_RADIUS_KM} km of this place in the last ${ACTIVE_ZOOMER_DAYS} days.`,
      params: { radius_km: MAX_ESTIMATE_RADIUS_KM, days: ACTIVE_ZOOMER_DAYS },
    });
  }
  const radius = ESTIMATE_RADII_KM.find((r) => tasks.filter((t) => t.distanceKm <= r).length >= MIN_SIMILAR_TASKS);
  if (radius === undefined) {
    const found = tasks.length;
    reasons.push(
      found === 0
        ? {
            code: "no_history",
            message: `No task within ${MAX_ESTIMATE_RADIUS_KM} km of this place has been delivered yet, so no estimate can be given.`,
            params: { radius_km: MAX_ESTIMATE_RADIUS_KM },
          }
        : {
            code: "too_little_history",
            message: `Only ${found} task${found === 1 ? " has" : "s have"} been delivered within ${MAX_ESTIMATE_RADIUS_KM} km of this place; an estimate needs at least ${MIN_SIMILAR_TASKS}.`,
            params: { similar_tasks: found, minimum: MIN_SIMILAR_TASKS, radius_km: MAX_ESTIMATE_RADIUS_KM },
          },
    );
    return { estimate: null, reasons, taskIds: [], zoomerIds: [] };
  }
  const sample = tasks.filter((t) => t.distanceKm <= radius).slice(0, MAX_SIMILAR_TASKS);
  const hours = sample.map((t) => t.hours);
  const p50 = quantile(hours, 0.5) ?? 0;
  const p90 = quantile(hours, 0.9) ?? 0;
  const nearby = [...new Set(zoomers.filter((z) => z.distanceKm <= radius).map((z) => z.id))];
  return {
    estimate: {
      p50_hours: round1(p50),
      p90_hours: round1(p90),
      deliver_by: new Date(opensAt.getTime() + p90 * 3_600_000).toISOString(),
      basis: { similar_tasks: sample.length, zoomers_nearby_30d: nearby.length, radius_km: radius },
    },
    reasons,
    taskIds: sample.map((t) => t.id),
    zoomerIds: nearby,
  };
}

/**
 * The order's estimate: it is delivered when its slowest location is, so each figure is the
 * largest of its locations' (their p50s and p90s, their latest deliver_by), resting on all their
 * samples together (tasks and contributors counted once) and the widest radius used. Null with a
 * reason when a location has no estimate: the order's could only be invented.
 */
export function estimateOrder(locations: readonly { name: string; result: LocationEstimate }[]): {
  estimate: DeliveryEstimate | null;
  reasons: FeasibilityReason[];
} {
  const missing = locations.filter((l) => l.result.estimate === null);
  if (missing.length > 0 || locations.length === 0) {
    const names = missing.map((l) => l.name);
    return {
      estimate: null,
      reasons: [
        {
          code: "location_without_estimate",
          message: `No estimate can be given for ${names.length === 1 ? "one location" : `${names.length} locations`} (${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}), so none can be given for the order.`,
          params: { locations: names.length, first: names[0] ?? "" },
        },
      ],
    };
  }
  const estimates = locations.flatMap((l) => (l.result.estimate ? [l.result.estimate] : []));
  const tasks = new Set(locations.flatMap((l) => l.result.taskIds));
  const zoomers = new Set(locations.flatMap((l) => l.result.zoomerIds));
  return {
    estimate: {
      p50_hours: Math.max(...estimates.map((e) => e.p50_hours)),
      p90_hours: Math.max(...estimates.map((e) => e.p90_hours)),
      deliver_by: new Date(Math.max(...estimates.map((e) => Date.parse(e.deliver_by)))).toISOString(),
      basis: { similar_tasks: tasks.size, zoomers_nearby_30d: zoomers.size, radius_km: Math.max(...estimates.map((e) => e.basis.radius_km)) },
    },
    reasons: [],
  };
}
