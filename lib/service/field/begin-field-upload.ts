// Starts a resumable field upload (tus creation): validates the Upload-Metadata and the length
// against the intake's caps, checks the target the way the intake will (an active mission, or a
// task the zoomer holds), checks the zoomer's caps on unfinished uploads (open-upload-caps.ts), and
// records who sends what, before the tus store makes room for bytes.
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { fieldUploads, zoomers } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { checkIntakeTarget } from "@/lib/service/submissions/take-in-photos";
import { fieldUploadStore } from "./field-upload-store";
import { assertRoomForUpload, openUploadCaps } from "./open-upload-caps";
import { parseUploadMetadata, type FieldUploadMetadata } from "./upload-metadata";

export interface BeginFieldUploadOptions {
  ctx: ServiceContext;
  zoomerId: string;
  /** The Upload-Metadata and Upload-Length headers as sent. */
  metadataHeader: string | null | undefined;
  uploadLengthHeader: string | null | undefined;
}

function uploadLength(header: string | null | undefined, maxBytes: number): number {
  if (!header || !/^\d{1,15}$/.test(header)) {
    throw new ApiError(400, "upload_length_required", "Send Upload-Length: the photo's size in bytes (deferred lengths are not accepted).", {
      errors: [{ pointer: "Upload-Length", in: "header", message: "A whole number of bytes." }],
    });
  }
  const length = Number(header);
  if (length === 0)
    throw new ApiError(422, "validation_failed", "The photo is empty.", { errors: [{ pointer: "Upload-Length", in: "header", message: "Empty file." }] });
  if (length > maxBytes) throw new ApiError(413, "file_too_large", `The photo is larger than ${maxBytes} bytes.`);
  return length;
}

/**
 * The target checked by the intake's own rule (checkIntakeTarget), as of now, the upload's
 * creation: what can only be refused is refused before any byte is sent; a photo this zoomer sent
 * there before is let through (a closed mission, a submitted task), so that a repeat finds its
 * submission when it completes, through this door as through the multipart one.
 */
async function resolveTarget(
  ctx: ServiceContext,
  zoomerId: string,
  metadata: FieldUploadMetadata,
): Promise<{ missionId: string; assignmentId: string | null }> {
  const checked = await checkIntakeTarget({ ctx, zoomerId, target: metadata.target, sendingSince: new Date() });
  if (checked.assignment && metadata.angle !== null && metadata.angle !== checked.assignment.angle) {
    throw new ApiError(422, "validation_failed", "This task is for another angle.", {
      errors: [{ pointer: "angle", in: "header", message: `This task asks for "${checked.assignment.angle}"; leave angle out or send that.` }],
    });
  }
  return { missionId: checked.missionId, assignmentId: checked.assignment?.id ?? null };
}

export async function beginFieldUpload({
  ctx,
  zoomerId,
  metadataHeader,
  uploadLengthHeader,
}: BeginFieldUploadOptions): Promise<{ id: string; filename: string | null }> {
  const length = uploadLength(uploadLengthHeader, ctx.config.uploads.maxFileBytes);
  const metadata = parseUploadMetadata(metadataHeader);
  const { missionId, assignmentId } = await resolveTarget(ctx, zoomerId, metadata);
  const id = createId("fieldUpload");
  const { ttlSeconds } = fieldUploadStore(ctx.config);
  const caps = openUploadCaps(ctx.config.uploads);
  await ctx.db.transaction(async (tx) => {
    // The zoomer's row, locked until commit, serialises this zoomer's creations (PostgreSQL waits
    // here; PGlite runs one transaction at a time anyway): two at once cannot both take the last slot.
    await tx.select({ id: zoomers.id }).from(zoomers).where(eq(zoomers.id, zoomerId)).for("update");
    const now = new Date();
    // Unfinished: neither received nor refused, and not yet past its expiry (the sweep removes those).
    const [open] = await tx
      .select({ count: count(), bytes: sql<string>`coalesce(sum(${fieldUploads.uploadLength}), 0)` })
      .from(fieldUploads)
      .where(and(eq(fieldUploads.zoomerId, zoomerId), isNull(fieldUploads.submissionId), isNull(fieldUploads.refusal), gt(fieldUploads.expiresAt, now)));
    assertRoomForUpload({ count: open?.count ?? 0, bytes: Number(open?.bytes ?? 0) }, length, caps);
    await tx
      .insert(fieldUploads)
      .values({ id, zoomerId, missionId, assignmentId, metadata, uploadLength: length, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) });
  });
  return { id, filename: metadata.filename };
}
