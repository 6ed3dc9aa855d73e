// Turns a finished resumable upload into a submission through the same intake as the multipart
// routes (recordSubmission), exactly once: the submission is keyed by zoomer, target and the
// photo's SHA-256, so a final PATCH retried, a HEAD after a lost answer, or the same photo sent
// again as a new upload all find the one submission. A refused photo (not a JPEG, too many
// pixels, the task gone) is remembered with its problem, so every retry hears the same answer.
// Either way the caller then releases the upload's bytes (releaseFieldUploadBytes).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { assignments, fieldUploads, submissions } from "@/lib/db/schema";
import type { Submission } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound, type FieldError } from "@/lib/service/errors";
import { removeTempFiles, spoolToTempFile, type UploadedFile } from "@/lib/service/submissions/parse-upload";
import { findByIntakeKey, recordSubmission } from "@/lib/service/submissions/receive-submission";
import { serializeSubmission } from "@/lib/service/submissions/serialize-submission";
import { fieldUploadStore } from "./field-upload-store";
import { targetId, type FieldUploadMetadata } from "./upload-metadata";

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

const RefusalSchema = z.object({ status: z.number().int(), code: z.string(), detail: z.string(), errors: z.array(z.object({ pointer: z.string(), message: z.string() }).passthrough()).optional() });

export function refusalError(refusal: unknown): ApiError | null {
  const parsed = RefusalSchema.safeParse(refusal);
  return parsed.success ? new ApiError(parsed.data.status, parsed.data.code, parsed.data.detail, { errors: parsed.data.errors as FieldError[] | undefined }) : null;
}

/** SHA-256 over who sent which photo for what: the submission's intake key. */
export function fieldIntakeKey(zoomerId: string, metadata: Pick<FieldUploadMetadata, "target">, photoSha256: string): string {
  return createHash("sha256").update(`${zoomerId}\n${targetId(metadata.target)}\n${photoSha256}`).digest("hex");
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
  await fieldUploadStore(ctx.config)
    .datastore.remove(uploadId)
    .catch(() => undefined);
}

async function assignmentOf(ctx: ServiceContext, metadata: z.infer<typeof StoredMetadataSchema>): Promise<{ id: string; angle: string } | undefined> {
  if (metadata.target.kind !== "assignment") return undefined;
  const [task] = await ctx.db.select({ id: assignments.id, angle: assignments.angle }).from(assignments).where(eq(assignments.id, metadata.target.assignmentId)).limit(1);
  if (!task) throw notFound("task");
  return task;
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

  const { datastore } = fieldUploadStore(ctx.config);
  const stored = await datastore.getUpload(upload.id);
  if (stored.size === undefined || stored.offset !== stored.size) {
    throw new ApiError(409, "upload_incomplete", `The upload has ${stored.offset} of ${upload.uploadLength} bytes; PATCH the rest first.`);
  }
  const metadata = StoredMetadataSchema.parse(upload.metadata);
  let file: UploadedFile | null = null;
  try {
    file = await spoolToTempFile(await datastore.read(upload.id), join(ctx.config.dataDir, "tmp"), metadata.filename);
    const intakeKey = fieldIntakeKey(upload.zoomerId, metadata, file.sha256);
    const submission =
      (await findByIntakeKey(ctx, intakeKey)) ??
      (await recordSubmission({
        ctx,
        zoomerId: upload.zoomerId,
        missionId: upload.missionId,
        files: [file],
        fields: { angle: metadata.angle, note: metadata.note, evidence: metadata.evidence },
        assignment: await assignmentOf(ctx, metadata),
        intakeKey,
      }));
    await ctx.db.update(fieldUploads).set({ submissionId: submission.id, completedAt: new Date() }).where(eq(fieldUploads.id, upload.id));
    ctx.wakeWorkers("qa", "webhooks");
    return submission;
  } catch (error) {
    // The photo itself was refused: final, remembered. Anything else (storage down) may pass on a retry.
    if (error instanceof ApiError && error.status < 500) await refuseFieldUpload(ctx, upload.id, error);
    throw error;
  } finally {
    if (file) await removeTempFiles([file]);
  }
}
