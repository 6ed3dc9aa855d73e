// How often the mission page asks again for the map's points. Each ask costs the server a pass
// over the mission's submissions to compute the version (even when the answer is 304), which at a
// million points blocks the embedded database for seconds; the first 10,000 points refresh as live
// as the list beside them, larger missions proportionally less often, at least once a minute.

export const POINTS_LIVE_MS = 4000;
const LIVE_UP_TO = 10_000;
const SLOWEST_MS = 60_000;

/** The refetch interval for a points document of `count` points (unknown: live). */
export function pointsPollInterval(count: number | undefined): number {
  if (count === undefined || count <= LIVE_UP_TO) return POINTS_LIVE_MS;
  return Math.min(SLOWEST_MS, Math.round((POINTS_LIVE_MS * count) / LIVE_UP_TO));
}
