// The QA job of one submission: decode each photo once (derivatives and measurements), look for
// earlier duplicates, run the checks, and record the verdict — with its events and the mission's
// completion — in one transaction. Running it twice is harmless: a decided submission is skipped.
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Readable } from "node:stream";
import { images, missions, submissions } from "@/lib/db/schema";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { analyseImage, hammingDistance, type Derivatives, type ImageMeasurements } from "@/lib/photos/analyse-image";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import { cdnBaseUrl, type ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/queue/queue";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { signImageUrl } from "@/lib/service/cdn/signed-url";
import { ObjectNotFoundError, type ObjectStore } from "@/lib/service/storage/object-store";
import { checkImage, reasonsFrom, type ImageFacts } from "./checks";
import { describeDecodeError } from "./decode-error";
import { effectiveThresholds } from "./thresholds";

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The file's path when the store is a directory, after checking it is there. */
async function localInput(store: ObjectStore, key: string): Promise<string> {
  if (!store.localPath) throw new Error("not a local store");
  if (!(await store.stat(key))) throw new ObjectNotFoundError(key);
  return store.localPath(key);
}

interface Analysed {
  id: string;
  measurements: ImageMeasurements | null;
  derivatives: Derivatives | null;
  decodeError: string | null;
}

/** Image links in webhooks outlive the whole retry schedule (≈3 days), so a late retry still works. */
const WEBHOOK_URL_TTL_SECONDS = 4 * 86_400;

function webhookImage(ctx: ServiceContext, row: { id: string; sha256: string; byteSize: number }, hasDerivatives: boolean) {
  const sign = { secret: ctx.cdnSecret, cdnUrl: cdnBaseUrl(ctx.config), ttlSeconds: WEBHOOK_URL_TTL_SECONDS };
  return {
    id: row.id,
    sha256: row.sha256,
    byte_size: row.byteSize,
    url: signImageUrl(row.id, "original", sign),
    thumbnail_url: hasDerivatives ? signImageUrl(row.id, "thumbnail", sign) : null,
  };
}

export async function runQa(ctx: ServiceContext, submissionId: string): Promise<void> {
  const { db, store } = ctx;
  const [submission] = await db.select().from(submissions).where(eq(submissions.id, submissionId)).limit(1);
  if (!submission || submission.status === "approved" || submission.status === "rejected") return;
  const [mission] = await db.select().from(missions).where(eq(missions.id, submission.missionId)).limit(1);
  if (!mission) return;
  await db.update(submissions).set({ status: "processing", updatedAt: new Date() }).where(eq(submissions.id, submissionId));

  const rows = await db.select().from(images).where(eq(images.submissionId, submissionId)).orderBy(asc(images.position));
  const analysed: Analysed[] = [];
  for (const row of rows) {
    // A photo the store cannot give us (missing on this disk, bucket unreachable) is not a bad
    // photo: the error propagates and the job is retried, instead of rejecting it for good.
    const input = store.localPath ? await localInput(store, row.storageKey) : await readAll(await store.read(row.storageKey));
    try {
      const { measurements, derivatives } = await analyseImage(input, {
        maxPixels: ctx.config.uploads.maxPixels,
        ...(ctx.config.blurFaces && ctx.findPeople ? { findPeople: ctx.findPeople } : {}),
      });
      analysed.push({ id: row.id, measurements, derivatives, decodeError: null });
    } catch (error) {
      analysed.push({ id: row.id, measurements: null, derivatives: null, decodeError: describeDecodeError(error) });
    }
  }

  // Earlier photos of the organisation with the same bytes, and of the mission with a near-identical look.
  const sameBytes = await db
    .select({ id: images.id, sha256: images.sha256 })
    .from(images)
    .where(
      and(
        eq(images.orgId, submission.orgId),
        inArray(
          images.sha256,
          rows.map((r) => r.sha256),
        ),
        ne(images.submissionId, submissionId),
      ),
    );
  const earlierHashes = await db
    .select({ id: images.id, hash: images.perceptualHash })
    .from(images)
    .where(and(eq(images.missionId, submission.missionId), ne(images.submissionId, submissionId), sql`${images.perceptualHash} is not null`));

  const thresholds = effectiveThresholds(mission.qaSettings);
  const bounds = mission.bounds as PolygonGeometry;
  const perImage = rows.map((row, i) => {
    const result = analysed[i];
    const exact = sameBytes.find((s) => s.sha256 === row.sha256) ?? rows.slice(0, i).find((r) => r.sha256 === row.sha256);
    let duplicate: ImageFacts["duplicate"] = exact ? { imageId: exact.id, kind: "exact", distance: 0 } : null;
    const hash = result?.measurements?.dhash;
    if (!duplicate && hash) {
      for (const earlier of [...earlierHashes, ...analysed.slice(0, i).map((a) => ({ id: a.id, hash: a.measurements?.dhash ?? null }))]) {
        if (!earlier.hash) continue;
        const distance = hammingDistance(hash, earlier.hash);
        if (distance <= thresholds.duplicate_max_distance) {
          duplicate = { imageId: earlier.id, kind: "similar", distance };
          break;
        }
      }
    }
    const facts: ImageFacts = {
      decodeError: result ? result.decodeError : "not analysed",
      measurements: result?.measurements ?? null,
      exif: row.exif as ExifSummary,
      duplicate,
    };
    return checkImage(facts, { bounds, createdAt: mission.createdAt }, thresholds, submission.createdAt);
  });

  // Derivatives are written before the verdict; if the transaction fails they are simply rewritten.
  const derivativeKeys = new Map<string, { thumbnail: string; preview: string }>();
  for (const [i, row] of rows.entries()) {
    const d = analysed[i]?.derivatives;
    if (!d) continue;
    const base = row.storageKey.replace(/\/original\.(jpg|heic|heif)$/, "");
    const keys = { thumbnail: `${base}/thumbnail.jpg`, preview: `${base}/preview.jpg` };
    await store.putBuffer(keys.thumbnail, d.thumbnail, { contentType: "image/jpeg" });
    await store.putBuffer(keys.preview, d.preview, { contentType: "image/jpeg" });
    derivativeKeys.set(row.id, keys);
  }

  const approved = perImage.every((checks) => checks.every((c) => c.passed));
  const reasons = [...new Set(perImage.flatMap((checks, i) => reasonsFrom(checks).map((r) => (rows.length > 1 ? `Photo ${i + 1}: ${r}` : r))))];

  await db.transaction(async (tx) => {
    for (const [i, row] of rows.entries()) {
      const m = analysed[i]?.measurements;
      const keys = derivativeKeys.get(row.id);
      await tx
        .update(images)
        .set({
          qa: perImage[i] as QaCheck[],
          perceptualHash: m?.dhash ?? null,
          thumbnailKey: keys?.thumbnail ?? null,
          previewKey: keys?.preview ?? null,
          ...(m ? { width: m.width, height: m.height } : {}),
        })
        .where(eq(images.id, row.id));
    }
    const now = new Date();
    const [decided] = await tx
      .update(submissions)
      .set({ status: approved ? "approved" : "rejected", qa: { thresholds }, reasons, decidedAt: now, updatedAt: now })
      .where(and(eq(submissions.id, submissionId), inArray(submissions.status, ["received", "processing"])))
      .returning();
    if (!decided) return; // decided concurrently by another worker
    const eventData = {
      submission_id: submissionId,
      mission_id: submission.missionId,
      zoomer_id: submission.zoomerId,
      image_count: submission.imageCount,
      location: submission.lat !== null && submission.lng !== null ? { lat: submission.lat, lng: submission.lng } : null,
      status: decided.status,
      decided_at: now.toISOString(),
      ...(approved ? { images: rows.map((row) => webhookImage(ctx, row, derivativeKeys.has(row.id))) } : { reasons }),
    };
    await recordEvent(tx, { orgId: submission.orgId, type: approved ? "submission.approved" : "submission.rejected", data: eventData });
    // An order's mission is done when its photos are verified and delivered, not when QA passes:
    // verification (which reads these QA checks) decides, counts the photo, and completes the mission.
    if (mission.orderId) {
      await enqueueJob(tx, "orders", { kind: "verify", submission_id: submissionId });
      return;
    }
    if (!approved) return;
    const [updated] = await tx
      .update(missions)
      .set({ approvedImageCount: sql`${missions.approvedImageCount} + ${submission.imageCount}`, updatedAt: now })
      .where(eq(missions.id, submission.missionId))
      .returning();
    if (updated && updated.status === "active" && updated.approvedImageCount >= updated.requiredImages) {
      const [completed] = await tx
        .update(missions)
        .set({ status: "completed", completedAt: now, updatedAt: now })
        .where(and(eq(missions.id, updated.id), eq(missions.status, "active")))
        .returning();
      if (completed) await recordEvent(tx, { orgId: completed.orgId, type: "mission.completed", data: { mission: serializeMission(completed) } });
    }
  });
  ctx.missionCache.invalidate(submission.missionId);
}
