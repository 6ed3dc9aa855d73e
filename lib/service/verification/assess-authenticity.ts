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
 * The same picture sent before anywhere in the service: the same bytes, or a difference hash
 * within the duplicate distance with the same capture time (or none to compare). A new photo of
 * the same facade from the same spot — a recurring order's next cycle — can hash as close, but it
 * was taken at another time; a re-sent or re-encoded copy keeps its capture time. A full scan of
 * the hashes QA stored (bit_count on PostgreSQL 14+ and PGlite).
 */
async function findSamePicture(ctx: ServiceContext, image: ImageRow): Promise<{ distance: number; sameOrganisation: boolean } | null> {
  if (!image.perceptualHash || !/^[0-9a-f]{16}$/.test(image.perceptualHash)) return null;
  const distance = sql<number>`bit_count(('x' || ${images.perceptualHash})::bit(64) # ('x' || ${image.perceptualHash})::bit(64))`;
  const candidates = await ctx.db
    .select({ orgId: images.orgId, sha256: images.sha256, capturedAt: images.capturedAt, distance })
    .from(images)
    .where(
      and(
        ne(images.submissionId, image.submissionId),
        sql`${images.perceptualHash} ~ '^[0-9a-f]{16}$'`,
        sql`${distance} <= ${AUTHENTICITY_THRESHOLDS.duplicateMaxDistance}`,
      ),
    )
    .orderBy(distance)
    .limit(20);
  const mine = image.capturedAt?.getTime() ?? null;
  const same = candidates.find((c) => {
    if (c.sha256 === image.sha256) return true;
    const theirs = c.capturedAt?.getTime() ?? null;
    return mine === null || theirs === null || Math.abs(mine - theirs) < 1000;
  });
  return same ? { distance: Number(same.distance), sameOrganisation: same.orgId === image.orgId } : null;
}

export async function assessAuthenticity(ctx: ServiceContext, options: { image: ImageRow; submission: SubmissionRow; bytes: Buffer }): Promise<CheckResult> {
  const { image, submission, bytes } = options;
  const [traces, seenElsewhere] = await Promise.all([readEditTraces(bytes), findSamePicture(ctx, image)]);
  const device =
    submission.deviceLat !== null && submission.deviceLng !== null
      ? { lat: submission.deviceLat, lng: submission.deviceLng, accuracy_m: submission.deviceAccuracyM ?? 0 }
      : null;
  return checkAuthenticity({
    device,
    exif: image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng } : null,
    capturedAt: image.capturedAt ?? submission.deviceCapturedAt,
    receivedAt: submission.createdAt,
    traces,
    seenElsewhere,
  });
}
