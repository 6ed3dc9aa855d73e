// Which delivered photos of a recurring order can be compared across cycles: per location and
// angle, the photo each cycle ended with (a retake's replaces the one sent back), in cycle order,
// where at least two cycles have one. Pure (tests beside); the cycle comes from the task that
// delivered the photo.
import type { Angle } from "@/lib/orders/vocabulary";
import type { DeliveredPhoto, OrderAssignment } from "./types";

export interface CycleShot {
  cycle: number;
  photo: DeliveredPhoto;
}

export interface CycleComparison {
  locationId: string;
  angle: Angle;
  shots: CycleShot[];
}

/** Comparisons keyed by location id; photos are in delivery order (oldest first), as the API lists them. */
export function cycleComparisons(
  photos: readonly DeliveredPhoto[],
  assignments: readonly Pick<OrderAssignment, "photo_id" | "cycle_index">[],
): Map<string, CycleComparison[]> {
  const cycleOf = new Map<string, number>();
  for (const a of assignments) if (a.photo_id) cycleOf.set(a.photo_id, a.cycle_index);
  const groups = new Map<string, { locationId: string; angle: Angle; byCycle: Map<number, DeliveredPhoto> }>();
  for (const photo of photos) {
    const cycle = cycleOf.get(photo.photo_id);
    if (cycle === undefined) continue;
    const key = `${photo.location_id}\u0000${photo.angle}`;
    const group = groups.get(key) ?? { locationId: photo.location_id, angle: photo.angle, byCycle: new Map() };
    group.byCycle.set(cycle, photo); // later deliveries of a cycle replace earlier ones
    groups.set(key, group);
  }
  const out = new Map<string, CycleComparison[]>();
  for (const group of groups.values()) {
    if (group.byCycle.size < 2) continue;
    const shots = [...group.byCycle.entries()].sort(([a], [b]) => a - b).map(([cycle, photo]) => ({ cycle, photo }));
    const list = out.get(group.locationId) ?? [];
    list.push({ locationId: group.locationId, angle: group.angle, shots });
    out.set(
      group.locationId,
      list.sort((a, b) => a.angle.localeCompare(b.angle)),
    );
  }
  return out;
}
