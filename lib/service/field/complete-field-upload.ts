// Turns a finished resumable upload into a submission through the one intake operation the
// multipart routes use too (take-in-photos.ts), exactly once: the submission is keyed by zoomer,
// target and the photo's SHA-256, so a final PATCH retried, a HEAD after a lost answer, the same
// photo sent again as a new upload or through the multipart door all find the one submission. A
// refused photo (not a JPEG, too many pixels, the task gone) is remembered with its problem, so
// every retry hears the same answer. Either way the caller then releases the upload's bytes
// (releaseFieldUploadBytes).
import { eq } from "drizzle-orm";
import { z } from "zod";
import { fieldUploads, submissions } from "@/lib/db/schema";
import type { Submission } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound, type FieldError } from "@/lib/service/errors";
import { removeTempFiles, type UploadedFile } from "@/lib/service/submissions/parse-upload";
import { serializeSubmission } from "@/lib/service/submissions/serialize-submission";
import { checkIntakeTarget, takeInPhotos } from "@/lib/service/submissions/take-in-photos";

export type FieldUploadRow = typeof fieldUploads.$inferSelect;

const StoredMetadataSchema = z.object({
  target: z.union([z.object({ kind: z.literal("mission"), missionId: z.string() }), z.object({ kind: z.literal("assignment"), assignmentId: z.string() })]),
  angle: z.string().nullable(),
  note: z.string().nullable(),
  filename: z.string().nullable(),
  evidence: z.object({
    position: z.object({ lat: z.number(), lng: z.number(), accuracy_m: z.number() }).nullable(),
    captured_at: z.string().nullable(),
    heading_deg: z.number().nullable(),
  }),
});

const RefusalSchema = z.object({
  status: z.number().int(),
  code: z.string(),
  detail: z.string(),
  errors: z.array(z.object({ pointer: z.string(), message: z.string() }).passthrough()).optional(),
});

export function refusalError(refusal: unknown): ApiError | null {
  const parsed = RefusalSchema.safeParse(refusal);
  return parsed.success
    ? new ApiError(parsed.data.status, parsed.data.code, parsed.data.detail, { errors: parsed.data.errors as FieldError[] | undefined })
    : null;
}

export async function submissionOf(ctx: ServiceContext, submissionId: string): Promise<Submission> {
  const [row] = await ctx.db.select().from(submissions).where(eq(submissions.id, submissionId)).limit(1);
  if (!row) throw notFound("submission");
  return serializeSubmission(row);
}

/**
 * Drops a finished upload's bytes from the tus store (the photo is in the photo store now, or was
 * refused). Called once the tus handler has answered: it reads the upload back after the finish.
 */
export async function releaseFieldUploadBytes(ctx: ServiceContext, uploadId: string): Promise<void> {
  await ctx.fieldUploads.datastore.remove(uploadId).catch(() => undefined);
}

/** Remembers why the upload's photo was refused: every later HEAD or PATCH of it answers the same. */
export async function refuseFieldUpload(ctx: ServiceContext, uploadId: string, error: ApiError): Promise<void> {
  const refusal = { status: error.status, code: error.code, detail: error.message, ...(error.errors ? { errors: error.errors } : {}) };
  await ctx.db.update(fieldUploads).set({ refusal, completedAt: new Date() }).where(eq(fieldUploads.id, uploadId));
}

export interface CompleteFieldUploadOptions {
  ctx: ServiceContext;
  upload: FieldUploadRow;
}

/** The submission the finished upload made (recording it the first time); throws the refusal as an ApiError. */
export async function completeFieldUpload({ ctx, upload }: CompleteFieldUploadOptions): Promise<Submission> {
  if (upload.submissionId) return submissionOf(ctx, upload.submissionId);
  const refused = refusalError(upload.refusal);
  if (refused) throw refused;

  const stored = await ctx.fieldUploads.datastore.getUpload(upload.id);
  if (stored.size === undefined || stored.offset !== stored.size) {
    throw new ApiError(409, "upload_incomplete", `The upload has ${stored.offset} of ${upload.uploadLength} bytes; PATCH the rest first.`);
  }
  const metadata = StoredMetadataSchema.parse(upload.metadata);
  let file: UploadedFile | null = null;
  try {
    // The target was checked when the upload began (beginFieldUpload); a reservation running then still counts.
    const checked = await checkIntakeTarget({ ctx, zoomerId: upload.zoomerId, target: metadata.target, sendingSince: upload.createdAt });
    file = await ctx.fieldUploads.finishedFile(upload.id, metadata.filename);
    const submission = await takeInPhotos({
      ctx,
      zoomerId: upload.zoomerId,
      checked,
      files: [file],
      fields: { angle: metadata.angle, note: metadata.note, evidence: metadata.evidence },
    });
    await ctx.db.update(fieldUploads).set({ submissionId: submission.id, completedAt: new Date() }).where(eq(fieldUploads.id, upload.id));
    return submission;
  } catch (error) {
    // The photo itself was refused: final, remembered. Anything else (storage down) may pass on a retry.
    if (error instanceof ApiError && error.status < 500) await refuseFieldUpload(ctx, upload.id, error);
    throw error;
  } finally {
    if (file) await removeTempFiles([file]);
  }
}
