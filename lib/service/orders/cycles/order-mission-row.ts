// The mission row an order's location gets in a cycle: a small area around the point (the circle
// verification accepts, so QA and verification agree on "there"), one required image per angle,
// the order's reference, its location and cycle, due by `deadline`. One builder for dispatch
// (dispatch-cycle.ts) and for the demo's history (lib/demo/seed-demo-history.ts), so a column added
// to order missions reaches both.
import { circle } from "@turf/turf";
import type { missions } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { ANGLE_DESCRIPTIONS, type Angle, type Category } from "@/lib/orders/vocabulary";
import type { Requirements } from "@/lib/schemas/order";
import { boundsColumns, validateBounds } from "@/lib/service/missions/validate-bounds";
import { VERIFICATION_THRESHOLDS } from "@/lib/service/verification/checks";
import type { OrderLocationRow, OrderRow } from "../order-rows";

export type OrderMissionRow = typeof missions.$inferInsert & { id: string; orgId: string; locationId: string };

export interface OrderMissionRowOptions {
  order: Pick<OrderRow, "id" | "orgId" | "clientReference" | "category">;
  location: Pick<OrderLocationRow, "id" | "name" | "lat" | "lng" | "timeZone" | "requirements">;
  cycleIndex: number;
  deadline: Date;
  /** When the mission is made: its created and updated times, and its id's time. */
  now: Date;
}

// The brief an integrator reads in the mission's `description`: the place and its angles. Its times
// are the row's columns (deadline_at in the API), never text: a page shows them in the reader's
// language and clock (the dashboard's mission page writes this brief from the order, localized).
function missionDescription(location: OrderMissionRowOptions["location"], requirements: Requirements): string {
  const angles = (requirements.angles ?? []).map((angle: Angle) => `• ${angle}: ${ANGLE_DESCRIPTIONS[angle]}`);
  const lines = [`Photograph ${location.name}, one photo per angle:`, ...angles];
  if (requirements.time_of_day) lines.push(`Time of day: ${requirements.time_of_day}.`);
  return lines.join("\n");
}

export function orderMissionRow({ order, location, cycleIndex, deadline, now }: OrderMissionRowOptions): OrderMissionRow {
  const requirements = location.requirements as Requirements;
  const radiusM = VERIFICATION_THRESHOLDS[order.category as Category]?.locationRadiusM ?? VERIFICATION_THRESHOLDS.cultural_exterior.locationRadiusM;
  const area = circle([location.lng, location.lat], radiusM / 1000, { steps: 24, units: "kilometers" });
  return {
    id: createId("orderMission", now.getTime()),
    orgId: order.orgId,
    title: location.name,
    description: missionDescription(location, requirements),
    ...boundsColumns(validateBounds(area.geometry)),
    requiredImages: Math.max(1, requirements.angles?.length ?? 1),
    orderId: order.id,
    orderReference: order.clientReference,
    locationId: location.id,
    cycleIndex,
    deadlineAt: deadline,
    createdAt: now,
    updatedAt: now,
  };
}
