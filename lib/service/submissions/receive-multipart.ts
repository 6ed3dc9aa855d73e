// The multipart door of the field intake: POST /missions/{id}/submissions and
// POST /field/assignments/{id}/photo. Checks the target before the body is read (what can only be
// refused is refused without reading it), streams the photos to temp files (hashed as they
// arrive), and hands them to the one intake operation (take-in-photos.ts) the tus door uses too.
import { join } from "node:path";
import type { Submission } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { parseUpload, removeTempFiles } from "./parse-upload";
import { MAX_NOTE_LENGTH, SUBMISSION_FORM_FIELDS, validateSubmissionFields } from "./receive-submission";
import { checkIntakeTarget, takeInPhotos, type IntakeTarget } from "./take-in-photos";

export interface ReceiveSubmissionOptions {
  ctx: ServiceContext;
  zoomerId: string;
  /** The mission of the path, or the task (one photo, of its angle; the task is then submitted). */
  target: IntakeTarget;
  body: ReadableStream<Uint8Array> | null;
  contentType: string | undefined;
}

/** The submission the request's photos make: new, or the one they made before (same zoomer, target and photos). */
export async function receiveSubmission({ ctx, zoomerId, target, body, contentType }: ReceiveSubmissionOptions): Promise<Submission> {
  const checked = await checkIntakeTarget({ ctx, zoomerId, target, sendingSince: new Date() });
  const { uploads, dataDir } = ctx.config;
  const upload = await parseUpload(body, contentType, join(dataDir, "tmp"), {
    maxFileBytes: uploads.maxFileBytes,
    maxFiles: target.kind === "assignment" ? 1 : uploads.maxPhotos,
    fileField: "photos",
    allowedFields: [...SUBMISSION_FORM_FIELDS],
    maxFieldBytes: MAX_NOTE_LENGTH * 4,
  });
  try {
    return await takeInPhotos({ ctx, zoomerId, checked, files: upload.files, fields: validateSubmissionFields(upload.fields) });
  } finally {
    await removeTempFiles(upload.files);
  }
}
