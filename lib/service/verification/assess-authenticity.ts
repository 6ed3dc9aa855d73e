// Gathers the authenticity signals of one stored photo — the phone's evidence recorded with its
// submission, the file's edit traces, and the same picture anywhere else in the service — and
// judges them (./authenticity.ts).
import { and, ne, sql } from "drizzle-orm";
import { images, type submissions } from "@/lib/db/schema";
import { readEditTraces } from "@/lib/photos/edit-traces";
import type { ServiceContext } from "@/lib/service/context";
import { AUTHENTICITY_THRESHOLDS, checkAuthenticity } from "./authenticity";
import type { CheckResult } from "@/lib/verification/place-checks";

type ImageRow = typeof images.$inferSelect;
type SubmissionRow = typeof submissions.$inferSelect;

/**
 * The nearest earlier picture in the whole service within the duplicate distance, by the 64-bit
 * difference hash QA stored (a full scan of the hashes: bit_count on PostgreSQL 14+ and PGlite).
 */
async function findSamePicture(ctx: ServiceContext, image: ImageRow): Promise<{ distance: number; sameOrganisation: boolean } | null> {
  if (!image.perceptualHash || !/^[0-9a-f]{16}$/.test(image.perceptualHash)) return null;
  const distance = sql<number>`bit_count(('x' || ${images.perceptualHash})::bit(64) # ('x' || ${image.perceptualHash})::bit(64))`;
  const [nearest] = await ctx.db
    .select({ orgId: images.orgId, distance })
    .from(images)
    .where(and(ne(images.submissionId, image.submissionId), sql`${images.perceptualHash} ~ '^[0-9a-f]{16}$'`, sql`${distance} <= ${AUTHENTICITY_THRESHOLDS.duplicateMaxDistance}`))
    .orderBy(distance)
    .limit(1);
  return nearest ? { distance: Number(nearest.distance), sameOrganisation: nearest.orgId === image.orgId } : null;
}

export async function assessAuthenticity(ctx: ServiceContext, options: { image: ImageRow; submission: SubmissionRow; bytes: Buffer }): Promise<CheckResult> {
  const { image, submission, bytes } = options;
  const [traces, seenElsewhere] = await Promise.all([readEditTraces(bytes), findSamePicture(ctx, image)]);
  const device =
    submission.deviceLat !== null && submission.deviceLng !== null ? { lat: submission.deviceLat, lng: submission.deviceLng, accuracy_m: submission.deviceAccuracyM ?? 0 } : null;
  return checkAuthenticity({
    device,
    exif: image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng } : null,
    capturedAt: image.capturedAt ?? submission.deviceCapturedAt,
    receivedAt: submission.createdAt,
    traces,
    seenElsewhere,
  });
}
