// Verification of an order's photo, after its QA: is it at the place, facing the target, at the
// right time of day, good enough (and, with an analyser, unobstructed, busy enough, on brand)?
// Approved photos wait for the rest of their location's set, which is then delivered; a failed
// photo opens a retake with the failed checks as instructions, up to MAX_RETAKES, after which the
// location is given up and its price refunded. Rejected photos are never delivered. A photo whose
// authenticity check fails is held for review (./review-held-photo.ts decides it): neither
// delivered nor retaken until a person has looked.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { assignments, images, missions, orderLocations, orders, submissions } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { jpegOf } from "@/lib/photos/open-image";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { Angle, Category } from "@/lib/orders/vocabulary";
import type { RecurringInput, Requirements } from "@/lib/schemas/order";
import type { QaCheck } from "@/lib/schemas/qa";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/queue/queue";
import type { PhotoHeldForReviewData } from "@/lib/schemas/webhook";
import { assessAuthenticity } from "@/lib/service/verification/assess-authenticity";
import { failedSignals } from "@/lib/service/verification/authenticity";
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
  const [submission] = await ctx.db.select().from(submissions).where(eq(submissions.id, submissionId)).limit(1);
  if (!image || !order || !location || !submission) return;

  const requirements = location.requirements as Requirements;
  const analyser = ctx.analyser;
  // The original's bytes: the edit traces are read from them, and the analyser looks at them.
  const bytes = await readAll(await ctx.store.read(image.storageKey));
  const authenticity = await assessAuthenticity(ctx, { image, submission, bytes });
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
    // The analysers read JPEG: a HEIC original is decoded for them (upright, full size, no metadata).
    image: analyser ? await jpegOf(bytes, { maxPixels: ctx.config.uploads.maxPixels }) : null,
    analyser,
    authenticity,
  });

  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const status = result.status === "approved" ? "verified" : result.status === "held" ? "held_for_review" : "failed";
    const [decided] = await tx
      .update(assignments)
      .set({ status, verification: result, completedAt: now, updatedAt: now, ...(status === "held_for_review" ? { heldAt: now } : {}) })
      .where(and(eq(assignments.id, assignment.id), eq(assignments.status, "submitted")))
      .returning();
    if (!decided) return; // decided concurrently
    if (status === "held_for_review") {
      // The account manager decides (dashboard, order photo review); the partner's systems hear of it now.
      await recordEvent(tx, {
        orgId: order.orgId,
        type: "photo.held_for_review",
        orderId: order.id,
        data: heldForReviewData({ order, assignment: decided, locationName: location.name, result, now }),
      });
      return;
    }
    if (status === "verified") await acceptPhoto(tx, { order, assignment, result, now });
    else await refusePhoto(tx, ctx, { order, assignment, result, now });
  });
  ctx.wakeWorkers("orders", "webhooks");
}

type AssignmentRow = typeof assignments.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

const eventBase = (order: OrderRow, assignment: AssignmentRow) => ({
  order_id: order.id,
  mission_id: assignment.missionId,
  location_id: assignment.locationId,
  assignment_id: assignment.id,
  angle: assignment.angle,
  attempt: assignment.attempt,
  photo_id: assignment.imageId,
});

/** `photo.held_for_review`'s data: which photo of which order and location, and the failed signals' codes. */
function heldForReviewData(options: {
  order: OrderRow;
  assignment: AssignmentRow;
  locationName: string;
  result: VerificationResult;
  now: Date;
}): PhotoHeldForReviewData {
  const { order, assignment, locationName, result, now } = options;
  return {
    order_id: order.id,
    mission_id: assignment.missionId,
    location_id: assignment.locationId,
    location_name: locationName,
    cycle_index: assignment.cycleIndex,
    assignment_id: assignment.id,
    angle: assignment.angle,
    attempt: assignment.attempt,
    photo_id: assignment.imageId ?? "",
    held_at: now.toISOString(),
    failed_signals: failedSignals(result.ai_checks.authenticity),
  };
}

/** A verified photo (by the checks or by a reviewer): counted toward its mission, and its location's set delivered when complete. */
export async function acceptPhoto(tx: Db, options: { order: OrderRow; assignment: AssignmentRow; result: VerificationResult; now: Date }): Promise<void> {
  const { order, assignment, result, now } = options;
  const base = eventBase(order, assignment);
  await recordEvent(tx, { orgId: order.orgId, type: "order.photo.verified", orderId: order.id, data: { ...base, verification: result } });
  // Only verified photos count toward an order mission's approved images (one per angle).
  await tx
    .update(missions)
    .set({ approvedImageCount: sql`${missions.approvedImageCount} + 1`, updatedAt: now })
    .where(eq(missions.id, assignment.missionId));
  await recordEvent(tx, { orgId: order.orgId, type: "order.assignment.completed", orderId: order.id, data: base });
  await enqueueJob(tx, "orders", { kind: "deliver", mission_id: assignment.missionId });
}

/** A failed photo (by the checks or by a reviewer): a retake with the instructions, or the location given up after MAX_RETAKES. */
export async function refusePhoto(
  tx: Db,
  ctx: ServiceContext,
  options: { order: OrderRow; assignment: AssignmentRow; result: VerificationResult; now: Date },
): Promise<void> {
  const { order, assignment, result, now } = options;
  // The verdict's instructions, in English and as codes: the retake carries both.
  const { instructions, instruction_codes: instructionCodes } = result;
  const base = eventBase(order, assignment);
  await recordEvent(tx, { orgId: order.orgId, type: "order.photo.rejected", orderId: order.id, data: { ...base, verification: result } });
  if (assignment.attempt >= MAX_RETAKES) {
    await tx.update(assignments).set({ status: "given_up", updatedAt: now }).where(eq(assignments.id, assignment.id));
    const gaveUp = { code: "retake.given_up", params: { angle: assignment.angle, retakes: MAX_RETAKES } };
    await giveUpLocation(
      tx,
      ctx,
      assignment,
      {
        text: `The ${assignment.angle} photo failed verification after ${MAX_RETAKES} retakes: ${instructions.join(" ")}`,
        codes: [gaveUp, ...instructionCodes],
      },
      now,
    );
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
    instructions,
    instructionCodes,
    createdAt: now,
    updatedAt: now,
  });
  await recordEvent(tx, {
    orgId: order.orgId,
    type: "order.assignment.retake",
    orderId: order.id,
    data: { ...base, retake_assignment_id: retakeId, retake: assignment.attempt + 1, instructions, instruction_codes: instructionCodes },
  });
}
