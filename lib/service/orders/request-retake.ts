// A partner sends a delivered photo back: the automated checks missed something. A new task opens
// for the same location and angle with the partner's reason as its instruction, the location's
// mission (and a fulfilled order) is open again until the new photo is verified and delivered.
// Retakes the partner asks for are not charged.
import { and, eq, isNotNull } from "drizzle-orm";
import { assignments, missions, orders } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { getOrderRow } from "./order-rows";
import { partnerAskedAgain } from "./retake-instructions";

export async function requestRetake(
  ctx: ServiceContext,
  { orgId, orderId, photoId, reason }: { orgId: string; orderId: string; photoId: string; reason: string },
) {
  const retakeId = createId("assignment");
  await ctx.db.transaction(async (tx) => {
    const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
    const [delivered] = await tx
      .select()
      .from(assignments)
      .where(and(eq(assignments.orderId, order.id), eq(assignments.imageId, photoId), isNotNull(assignments.deliveredAt)))
      .limit(1);
    if (!delivered) throw notFound("delivered photo");
    if (delivered.retakeRequestedAt) throw new ApiError(409, "retake_already_requested", "A retake of this photo was already requested.");
    if (order.status === "cancelled" || order.status === "expired" || order.status === "ended") {
      throw new ApiError(409, "invalid_order_state", `The order is ${order.status}; no retakes can be taken for it.`);
    }
    const now = new Date();
    await tx.update(assignments).set({ retakeRequestedAt: now, updatedAt: now }).where(eq(assignments.id, delivered.id));
    // The new photo replaces this one in the location's set: the old one stays delivered, but no
    // longer counts as the verified photo of its angle.
    await tx.update(assignments).set({ status: "cancelled", updatedAt: now }).where(eq(assignments.id, delivered.id));
    await tx.insert(assignments).values({
      id: retakeId,
      orgId: delivered.orgId,
      orderId: delivered.orderId,
      missionId: delivered.missionId,
      locationId: delivered.locationId,
      cycleIndex: delivered.cycleIndex,
      angle: delivered.angle,
      attempt: delivered.attempt + 1,
      lat: delivered.lat,
      lng: delivered.lng,
      timeZone: delivered.timeZone,
      windowStart: delivered.windowStart,
      windowEnd: delivered.windowEnd,
      deadlineAt: new Date(Math.max(delivered.deadlineAt.getTime(), now.getTime() + 24 * 3_600_000)),
      // The partner's reason under a prefix the zoomer reads in their language (codes.retake.partner_asked).
      instructions: [partnerAskedAgain(reason).text],
      instructionCodes: [partnerAskedAgain(reason).coded],
      createdAt: now,
      updatedAt: now,
    });
    await tx.update(missions).set({ status: "active", completedAt: null, updatedAt: now }).where(eq(missions.id, delivered.missionId));
    ctx.missionCache.invalidate(delivered.missionId);
    if (order.status === "fulfilled" || order.status === "partially_fulfilled") {
      await tx.update(orders).set({ status: "in_progress", fulfilledAt: null, updatedAt: now }).where(eq(orders.id, order.id));
    }
    await recordEvent(tx, {
      orgId,
      type: "order.assignment.retake",
      orderId: order.id,
      data: {
        order_id: order.id,
        mission_id: delivered.missionId,
        location_id: delivered.locationId,
        angle: delivered.angle,
        photo_id: photoId,
        retake_assignment_id: retakeId,
        requested_by: "partner",
        reason,
        instruction_codes: [partnerAskedAgain(reason).coded],
      },
    });
  });
  ctx.wakeWorkers("webhooks");
  return retakeId;
}
