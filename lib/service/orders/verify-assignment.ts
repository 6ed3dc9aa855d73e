// Verification of an order's photo, after its QA: is it at the place, facing the target, at the
// right time of day, good enough (and, with an analyser, unobstructed, busy enough, on brand)?
// Approved photos wait for the rest of their location's set, which is then delivered; a failed
// photo opens a retake with the failed checks as instructions, up to MAX_RETAKES, after which the
// location is given up and its price refunded. Rejected photos are never delivered.
import { and, eq, sql } from "drizzle-orm";
import { assignments, images, missions, orderLocations, orders } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { Angle, Category } from "@/lib/orders/vocabulary";
import type { RecurringInput, Requirements } from "@/lib/schemas/order";
import type { QaCheck } from "@/lib/schemas/qa";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/jobs/queue";
import { photoFactsFromExif, verifyPhoto, type VerificationResult } from "@/lib/service/verification/checks";
import { giveUpLocation } from "./deliver-location";

export const MAX_RETAKES = 3;

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export async function verifyAssignment(ctx: ServiceContext, submissionId: string): Promise<void> {
  const [assignment] = await ctx.db.select().from(assignments).where(eq(assignments.submissionId, submissionId)).limit(1);
  if (!assignment || assignment.status !== "submitted" || !assignment.imageId) return;
  const [image] = await ctx.db.select().from(images).where(eq(images.id, assignment.imageId)).limit(1);
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, assignment.orderId)).limit(1);
  const [location] = await ctx.db
    .select()
    .from(orderLocations)
    .where(and(eq(orderLocations.orderId, assignment.orderId), eq(orderLocations.id, assignment.locationId)))
    .limit(1);
  if (!image || !order || !location) return;

  const requirements = location.requirements as Requirements;
  const analyser = ctx.analyser;
  const bytes = analyser ? await readAll(await ctx.store.read(image.storageKey)) : null;
  const result: VerificationResult = await verifyPhoto({
    photo: photoFactsFromExif(image.exif as ExifSummary, location.timeZone, image.createdAt),
    target: { lat: location.lat, lng: location.lng, name: location.name },
    category: order.category as Category,
    angle: assignment.angle as Angle,
    timeZone: location.timeZone,
    requirements: {
      ...(requirements.time_of_day ? { timeOfDay: requirements.time_of_day } : {}),
      ...((order.recurring as RecurringInput | null)?.time_window ? { timeWindow: (order.recurring as RecurringInput).time_window } : {}),
      ...(requirements.minimum_crowd ? { minimumCrowd: requirements.minimum_crowd } : {}),
      ...(requirements.brand_match ? { brand: requirements.brand_match } : {}),
    },
    qaChecks: (image.qa as QaCheck[] | null) ?? [],
    image: bytes,
    analyser,
  });

  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const approved = result.status === "approved";
    const [decided] = await tx
      .update(assignments)
      .set({ status: approved ? "verified" : "failed", verification: result, completedAt: now, updatedAt: now })
      .where(and(eq(assignments.id, assignment.id), eq(assignments.status, "submitted")))
      .returning();
    if (!decided) return; // decided concurrently
    const base = { order_id: order.id, mission_id: assignment.missionId, location_id: assignment.locationId, assignment_id: assignment.id, angle: assignment.angle, attempt: assignment.attempt, photo_id: image.id };
    await recordEvent(tx, { orgId: order.orgId, type: approved ? "order.photo.verified" : "order.photo.rejected", orderId: order.id, data: { ...base, verification: result } });
    if (approved) {
      // Only verified photos count toward an order mission's approved images (one per angle).
      await tx.update(missions).set({ approvedImageCount: sql`${missions.approvedImageCount} + 1`, updatedAt: now }).where(eq(missions.id, assignment.missionId));
      await recordEvent(tx, { orgId: order.orgId, type: "order.assignment.completed", orderId: order.id, data: base });
      await enqueueJob(tx, "orders", { kind: "deliver", mission_id: assignment.missionId });
      return;
    }
    if (assignment.attempt >= MAX_RETAKES) {
      await tx.update(assignments).set({ status: "given_up", updatedAt: now }).where(eq(assignments.id, assignment.id));
      await giveUpLocation(tx, ctx, assignment, `The ${assignment.angle} photo failed verification after ${MAX_RETAKES} retakes: ${result.instructions.join(" ")}`, now);
      return;
    }
    const retakeId = createId("assignment");
    await tx.insert(assignments).values({
      id: retakeId,
      orgId: assignment.orgId,
      orderId: assignment.orderId,
      missionId: assignment.missionId,
      locationId: assignment.locationId,
      cycleIndex: assignment.cycleIndex,
      angle: assignment.angle,
      attempt: assignment.attempt + 1,
      lat: assignment.lat,
      lng: assignment.lng,
      timeZone: assignment.timeZone,
      windowStart: assignment.windowStart,
      windowEnd: assignment.windowEnd,
      deadlineAt: assignment.deadlineAt,
      instructions: result.instructions,
      createdAt: now,
      updatedAt: now,
    });
    await recordEvent(tx, { orgId: order.orgId, type: "order.assignment.retake", orderId: order.id, data: { ...base, retake_assignment_id: retakeId, retake: assignment.attempt + 1, instructions: result.instructions } });
  });
  ctx.wakeWorkers("orders", "webhooks");
}
