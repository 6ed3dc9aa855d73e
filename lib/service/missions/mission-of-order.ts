import { ApiError } from "@/lib/service/errors";
import type { MissionRow } from "./serialize-mission";

/**
 * An order's mission does that order's paid work: its place, angles and due time come from the
 * order, so it changes only with the order (the order cancelled, a late location cancelled), never
 * through the mission interface, where a changed area or photo count would silently part it from
 * what the partner paid for and what the order reports.
 */
export function refuseOrderMission(mission: MissionRow, change: "changed" | "cancelled"): void {
  if (mission.orderId === null) return;
  throw new ApiError(
    409,
    "mission_of_order",
    `This mission does the work of order ${mission.orderId} and cannot be ${change} on its own: cancel the order ` +
      `(POST /api/orders/v1/orders/${mission.orderId}/cancel) or, once it is late, its location (POST /api/orders/v1/orders/${mission.orderId}/locations/{location_id}/cancel).`,
  );
}
