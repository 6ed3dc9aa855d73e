// Delivery: when every angle of a dispatched location has a verified photo, the set is delivered
// as `photos.delivered` (the spec's Delivered photo record, plus order, mission and location ids)
// to the order's delivery URL and subscribed endpoints, the mission completes, and the order (or
// the recurring cycle) completes once every location is delivered or given up. Weather is looked
// up first, with a short timeout; without an answer the record says `null` and why.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { assignments, images, missions, orderCycles, orders, payments, submissions } from "@/lib/db/schema";
import type { Angle } from "@/lib/orders/vocabulary";
import type { Quote } from "@/lib/schemas/order";
import type { Localisable } from "@/lib/verification/place-checks";
import { signImageUrl } from "@/lib/service/cdn/signed-url";
import { API_BASE_PATH, cdnBaseUrl, type ServiceContext } from "@/lib/service/context";
import { signEvidence } from "./photo-evidence";
import { recordEvent } from "@/lib/service/events/record-event";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { serializeDeviceEvidence, type SubmissionRow } from "@/lib/service/submissions/serialize-submission";
import { weatherProvider, type WeatherResult } from "@/lib/service/weather/weather-provider";
import { makeBlurredCopies, wantsBlurredDelivery } from "./make-blurred-copies";
import { makeC2paCopies } from "@/lib/service/provenance/sign-c2pa-copy";
import { TRUST_ANCHOR_PATH } from "@/lib/service/provenance/provenance-credentials";
import { closeOpenPromises, markLocationDelivered } from "./delivery-promises";
import { refundOrder } from "./take-payment";

/** Delivered links outlive the webhook retry schedule (≈3 days) with room to spare. */
export const DELIVERY_URL_TTL_SECONDS = 7 * 86_400;

type AssignmentRow = typeof assignments.$inferSelect;
type ImageRow = typeof images.$inferSelect;

interface StoredVerification {
  status: "approved" | "rejected";
  ai_checks: Record<string, { score: number; passed: boolean } & Record<string, unknown>>;
}

/**
 * The submission gives the phone's own evidence (device_evidence); null when it is not at hand.
 * `evidence` is the JWS stored at delivery (./photo-evidence.ts).
 */
export function deliveredPhotoRecord(ctx: ServiceContext, assignment: AssignmentRow, image: ImageRow, submission: SubmissionRow | null, evidence: string) {
  const sign = { secret: ctx.cdnSecret, cdnUrl: cdnBaseUrl(ctx.config), ttlSeconds: DELIVERY_URL_TTL_SECONDS };
  const verification = assignment.verification as StoredVerification | null;
  const weather = assignment.weather as WeatherResult | null;
  return {
    photo_id: image.id,
    order_id: assignment.orderId,
    mission_id: assignment.missionId,
    location_id: assignment.locationId,
    url: signImageUrl(image.id, image.blurredKey ? "blurred" : "original", sign),
    ...(image.blurredKey ? { blurred: true } : {}),
    thumbnail: signImageUrl(image.id, image.thumbnailKey ? "thumbnail" : "original", sign),
    angle: assignment.angle as Angle,
    metadata: {
      captured_at: image.capturedAt?.toISOString() ?? null,
      gps: image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng } : null,
      weather: weather?.weather ?? null,
      ...(weather && weather.weather === null ? { weather_unavailable_reason: weather.reason } : {}),
      device: image.deviceMake || image.deviceModel ? [image.deviceMake, image.deviceModel].filter(Boolean).join(" ") : null,
      direction_deg: image.directionDeg,
      sha256: image.sha256,
      device_evidence: submission ? serializeDeviceEvidence(submission) : null,
    },
    verification: { status: "approved" as const, ai_checks: verification?.ai_checks ?? {} },
    evidence,
    provenance: image.c2paKey
      ? { c2pa_url: signImageUrl(image.id, "c2pa", sign), trust_anchor_url: `${ctx.config.publicOrigin}${API_BASE_PATH}${TRUST_ANCHOR_PATH}` }
      : null,
  };
}

/** Verified, undelivered photos of a mission when every angle it asks has one; else null. */
async function readySet(db: Db, missionId: string) {
  const rows = await db.select().from(assignments).where(eq(assignments.missionId, missionId));
  const angles = new Set(rows.map((r) => r.angle));
  const verified = rows.filter((r) => r.status === "verified");
  if (verified.length === 0 || [...angles].some((angle) => !verified.some((r) => r.angle === angle))) return null;
  if (verified.every((r) => r.deliveredAt !== null)) return null;
  return verified;
}

export async function deliverLocation(ctx: ServiceContext, missionId: string): Promise<void> {
  const ready = await readySet(ctx.db, missionId);
  if (!ready) return;
  const stored = await ctx.db
    .select()
    .from(images)
    .where(
      inArray(
        images.id,
        ready.map((r) => r.imageId ?? ""),
      ),
    );
  // Outside the transaction, like the weather: the blurred copies are CPU work.
  const orgId = stored[0]?.orgId;
  const imageRows = orgId && (await wantsBlurredDelivery(ctx, orgId)) ? await makeBlurredCopies(ctx, stored) : stored;
  const byId = new Map(imageRows.map((i) => [i.id, i]));
  const submissionRows = await ctx.db
    .select()
    .from(submissions)
    .where(
      inArray(
        submissions.id,
        ready.map((r) => r.submissionId ?? ""),
      ),
    );
  const submissionById = new Map(submissionRows.map((s) => [s.id, s]));
  // Weather before the transaction: a slow service must not hold locks.
  const provider = weatherProvider(ctx);
  const weather = new Map<string, WeatherResult>();
  for (const a of ready) {
    const image = byId.get(a.imageId ?? "");
    if (a.weather || !image?.capturedAt) continue;
    weather.set(a.id, await provider.at({ lat: image.lat ?? a.lat, lng: image.lng ?? a.lng, instant: image.capturedAt }));
  }

  // The evidence too (./photo-evidence.ts): signing looks up the signing key, which must not wait
  // on the transaction's connection (PGlite has one). The record is made of facts delivery does not change.
  const evidence = new Map<string, string>();
  for (const a of ready) {
    const image = byId.get(a.imageId ?? "");
    if (image) evidence.set(a.id, await signEvidence(ctx, a, image, submissionById.get(a.submissionId ?? "") ?? null));
  }
  // The C2PA-signed copies beside the originals (lib/service/provenance), carrying that evidence.
  const copies = await makeC2paCopies(
    ctx,
    ready.flatMap((a) => {
      const image = byId.get(a.imageId ?? "");
      const signed = evidence.get(a.id);
      return image && signed ? [{ image, evidence: signed }] : [];
    }),
  );
  for (const [imageId, key] of copies) {
    const image = byId.get(imageId);
    if (image) byId.set(imageId, { ...image, c2paKey: key });
  }

  await ctx.db.transaction(async (tx) => {
    const [mission] = await tx.select().from(missions).where(eq(missions.id, missionId)).limit(1).for("update");
    if (!mission?.orderId) return;
    const now = new Date();
    const delivered = await tx
      .update(assignments)
      .set({
        deliveredAt: now,
        updatedAt: now,
        weather: sql`coalesce(${assignments.weather}, (${JSON.stringify(Object.fromEntries(weather))}::jsonb -> ${assignments.id}))`,
      })
      .where(and(eq(assignments.missionId, missionId), eq(assignments.status, "verified"), isNull(assignments.deliveredAt)))
      .returning();
    if (delivered.length === 0) return; // delivered concurrently
    const photos = [];
    for (const a of delivered) {
      const image = byId.get(a.imageId ?? "");
      const signed = evidence.get(a.id);
      if (!image || !signed) continue;
      const submission = submissionById.get(a.submissionId ?? "") ?? null;
      // Each photo carries its signed verification record, stored as made.
      await tx.update(assignments).set({ evidenceJws: signed }).where(eq(assignments.id, a.id));
      photos.push(deliveredPhotoRecord(ctx, a, image, submission, signed));
    }
    await recordEvent(tx, {
      orgId: mission.orgId,
      type: "photos.delivered",
      orderId: mission.orderId,
      data: { order_id: mission.orderId, mission_id: mission.id, location_id: mission.locationId, cycle_index: mission.cycleIndex, photos },
    });
    const [completed] = await tx
      .update(missions)
      .set({ status: "completed", completedAt: now, updatedAt: now })
      .where(and(eq(missions.id, mission.id), eq(missions.status, "active")))
      .returning();
    await markLocationDelivered(tx, { missionId: mission.id, now });
    if (completed) {
      const data = { mission: serializeMission(completed) };
      await recordEvent(tx, { orgId: completed.orgId, type: "mission.completed", data });
      await recordEvent(tx, {
        orgId: completed.orgId,
        type: "order.mission.completed",
        orderId: mission.orderId,
        data: { order_id: mission.orderId, ...data },
      });
    }
    await completeIfDone(tx, ctx, mission.orderId, mission.cycleIndex ?? 0, now);
  });
  ctx.missionCache.invalidate(missionId);
  ctx.wakeWorkers("webhooks");
}

/**
 * A location whose retakes are used up: given up, its price for the cycle refunded. The reason is
 * an English sentence and the same as codes (`reason_codes` in `order.location.failed`), so a page
 * or an integrator can say it in the reader's language.
 */
export async function giveUpLocation(
  tx: Db,
  ctx: ServiceContext,
  assignment: AssignmentRow,
  reason: { text: string; codes: Localisable[] },
  now: Date,
): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, assignment.orderId)).limit(1);
  if (!order) return;
  await tx
    .update(assignments)
    .set({ status: "cancelled", updatedAt: now })
    .where(and(eq(assignments.missionId, assignment.missionId), inArray(assignments.status, ["open", "reserved"])));
  await tx
    .update(missions)
    .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
    .where(and(eq(missions.id, assignment.missionId), eq(missions.status, "active")));
  await closeOpenPromises(tx, { orderId: assignment.orderId, missionId: assignment.missionId, now });
  ctx.missionCache.invalidate(assignment.missionId);
  const quote = order.quote as Quote;
  const item = quote.line_items.find((l) => l.location_id === assignment.locationId);
  const factor = quote.subtotal_cents > 0 ? quote.total_cents / quote.subtotal_cents : 1;
  const paidForCycle = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.kind, "charge"), eq(payments.status, "succeeded"), eq(payments.cycleIndex, assignment.cycleIndex)))
    .limit(1);
  const refund = item && paidForCycle.length > 0 ? await refundOrder(tx, ctx, order, Math.round(item.amount_cents * factor)) : 0;
  await recordEvent(tx, {
    orgId: order.orgId,
    type: "order.location.failed",
    orderId: order.id,
    data: {
      order_id: order.id,
      mission_id: assignment.missionId,
      location_id: assignment.locationId,
      cycle_index: assignment.cycleIndex,
      reason: reason.text,
      reason_codes: reason.codes,
      refunded_cents: refund,
      currency: order.currency,
    },
  });
  if (refund > 0)
    await recordEvent(tx, {
      orgId: order.orgId,
      type: "order.refunded",
      orderId: order.id,
      data: { order_id: order.id, amount_cents: refund, currency: order.currency, reason: "location_failed" },
    });
  await completeIfDone(tx, ctx, order.id, assignment.cycleIndex, now);
}

/** Once no mission of the cycle is active: the cycle is done, and a one-off order fulfilled. */
export async function completeIfDone(tx: Db, _ctx: ServiceContext, orderId: string, cycleIndex: number, now: Date): Promise<void> {
  const rows = await tx
    .select({ status: missions.status })
    .from(missions)
    .where(and(eq(missions.orderId, orderId), eq(missions.cycleIndex, cycleIndex)));
  if (rows.length === 0 || rows.some((m) => m.status === "active")) return;
  const givenUp = rows.filter((m) => m.status === "cancelled").length;
  await tx
    .update(orderCycles)
    .set({ completedAt: now })
    .where(and(eq(orderCycles.orderId, orderId), eq(orderCycles.index, cycleIndex), isNull(orderCycles.completedAt)));
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order || order.status !== "in_progress") return;
  const status = givenUp === 0 ? "fulfilled" : "partially_fulfilled";
  await tx.update(orders).set({ status, fulfilledAt: now, updatedAt: now }).where(eq(orders.id, orderId));
  await recordEvent(tx, {
    orgId: order.orgId,
    type: givenUp === 0 ? "order.fulfilled" : "order.partially_fulfilled",
    orderId,
    data: { order_id: orderId, locations_delivered: rows.length - givenUp, locations_failed: givenUp },
  });
}
