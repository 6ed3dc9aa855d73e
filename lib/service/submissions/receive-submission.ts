// Field intake: takes a zoomer's upload, checks every file (type by magic bytes, pixel count from
// the header before any decoding), keeps the original bytes exactly, and records the submission,
// its images, the submission.received event and the QA job in one transaction. On any failure
// nothing of the submission remains: temp files and stored objects are removed.
import { and, eq, sql } from "drizzle-orm";
import { join } from "node:path";
import { assignments, images, missions, submissions } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { readDimensions } from "@/lib/photos/analyse-image";
import { jpegHeaderLength } from "@/lib/photos/jpeg-header-length";
import { readExif, type ExifSummary } from "@/lib/photos/read-exif";
import { sniffImageType } from "@/lib/photos/sniff-image-type";
import { ANGLES } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/jobs/queue";
import { parseUpload, removeTempFiles, type UploadedFile } from "./parse-upload";
import { serializeSubmission } from "./serialize-submission";

export interface ReceiveSubmissionOptions {
  ctx: ServiceContext;
  zoomerId: string;
  missionId: string;
  body: ReadableStream<Uint8Array> | null;
  contentType: string | undefined;
  /** An order assignment the zoomer holds: one photo, of its angle, and the assignment is submitted. */
  assignment?: { id: string; angle: string };
}

interface CheckedFile extends UploadedFile {
  width: number;
  height: number;
  exif: ExifSummary;
}

export const MAX_NOTE_LENGTH = 2000;

async function assertOpen(ctx: ServiceContext, missionId: string, viaAssignment: boolean): Promise<{ orgId: string }> {
  const [mission] = await ctx.db.select({ status: missions.status, orderId: missions.orderId, orgId: missions.orgId }).from(missions).where(eq(missions.id, missionId)).limit(1);
  if (!mission) throw notFound("mission");
  if (mission.status !== "active") throw new ApiError(409, "mission_not_active", `The mission is ${mission.status}; it takes no more submissions.`);
  if (mission.orderId && !viaAssignment) {
    throw new ApiError(409, "take_the_task", "This mission belongs to an order: take one of its tasks (GET /field/assignments) and submit the photo there.");
  }
  return { orgId: mission.orgId };
}

/** Type by magic bytes, pixel cap from the header, EXIF; exported for the photo-intake benchmark. */
export async function checkFile(file: UploadedFile, maxPixels: number): Promise<CheckedFile> {
  const name = file.originalName ?? "photo";
  const type = sniffImageType(file.head);
  if (type.kind === "heif") {
    throw new ApiError(415, "unsupported_image_type", `"${name}" is HEIC/HEIF, which this service cannot decode yet. Set the camera to "Most compatible" (JPEG) and retake, or convert to JPEG.`);
  }
  if (type.kind !== "jpeg") {
    const what = type.kind === "other" ? type.mime : "not an image we recognise";
    throw new ApiError(415, "unsupported_image_type", `"${name}" is ${what}. Photos must be JPEG.`);
  }
  // The header (SOF, EXIF) usually fits in the head kept while streaming: then it is read from
  // memory and the temp file is not opened again.
  const source = jpegHeaderLength(file.head) === null ? file.tempPath : Buffer.from(file.head.buffer, file.head.byteOffset, file.head.byteLength);
  const dimensions = await readDimensions(source);
  if (!dimensions) throw new ApiError(422, "unreadable_image", `"${name}" is not a readable JPEG.`);
  if (dimensions.width * dimensions.height > maxPixels) {
    throw new ApiError(413, "too_many_pixels", `"${name}" is ${dimensions.width}×${dimensions.height} px; at most ${maxPixels.toLocaleString("en")} pixels are accepted.`);
  }
  return { ...file, ...dimensions, exif: await readExif(source) };
}

function validateFields(fields: Record<string, string>): { angle: string | null; note: string | null } {
  const angle = fields.angle?.trim() || null;
  if (angle !== null && !(ANGLES as readonly string[]).includes(angle)) {
    throw new ApiError(422, "validation_failed", "Unknown angle.", { errors: [{ pointer: "angle", in: "body", message: `Use one of ${ANGLES.join(", ")}.` }] });
  }
  const note = fields.note?.trim() || null;
  if (note !== null && note.length > MAX_NOTE_LENGTH) {
    throw new ApiError(422, "validation_failed", "Note too long.", { errors: [{ pointer: "note", in: "body", message: `At most ${MAX_NOTE_LENGTH} characters.` }] });
  }
  return { angle, note };
}

export async function receiveSubmission({ ctx, zoomerId, missionId, body, contentType, assignment }: ReceiveSubmissionOptions) {
  const { orgId } = await assertOpen(ctx, missionId, assignment !== undefined);
  const { uploads, dataDir } = ctx.config;
  const upload = await parseUpload(body, contentType, join(dataDir, "tmp"), {
    maxFileBytes: uploads.maxFileBytes,
    maxFiles: assignment ? 1 : uploads.maxPhotos,
    fileField: "photos",
    allowedFields: ["angle", "note"],
    maxFieldBytes: MAX_NOTE_LENGTH * 4,
  });
  const storedKeys: string[] = [];
  try {
    const fields = validateFields(upload.fields);
    if (assignment) {
      if (fields.angle !== null && fields.angle !== assignment.angle) {
        throw new ApiError(422, "validation_failed", "This task is for another angle.", {
          errors: [{ pointer: "angle", in: "body", message: `This task asks for "${assignment.angle}"; leave angle out or send that.` }],
        });
      }
      fields.angle = assignment.angle;
    }
    const checked: CheckedFile[] = [];
    for (const file of upload.files) checked.push(await checkFile(file, uploads.maxPixels));

    const submissionId = createId("submission");
    const imageIds = checked.map(() => createId("image"));
    const located = checked.find((f) => f.exif.gps);
    const gps = located?.exif.gps ?? null;
    const capturedAt = checked.find((f) => f.exif.captured_at)?.exif.captured_at ?? null;

    // Stored before the transaction (an upload to object storage must not hold a database
    // transaction open), each checked against the SHA-256 measured while parsing; removed again
    // below if anything after fails, so a refused submission leaves no object behind.
    const keys = imageIds.map((id) => `${orgId}/${missionId}/${id}/original.jpg`);
    for (const [i, file] of checked.entries()) {
      const key = keys[i] ?? "";
      storedKeys.push(key);
      await ctx.store.putFile(key, file.tempPath, { sha256: file.sha256, contentType: "image/jpeg" });
    }

    const received = await ctx.db.transaction(async (tx) => {
      // Counting the submission is also the state check: a mission completed or cancelled since
      // the first look refuses it here, inside the transaction.
      const [mission] = await tx
        .update(missions)
        .set({ submissionCount: sql`${missions.submissionCount} + 1`, updatedAt: new Date() })
        .where(and(eq(missions.id, missionId), eq(missions.status, "active")))
        .returning({ orgId: missions.orgId });
      if (!mission) throw new ApiError(409, "mission_not_active", "The mission stopped taking submissions.");

      const [row] = await tx
        .insert(submissions)
        .values({
          id: submissionId,
          missionId,
          orgId: mission.orgId,
          zoomerId,
          status: "received",
          angle: fields.angle,
          note: fields.note,
          lat: gps?.lat ?? null,
          lng: gps?.lng ?? null,
          altitudeM: gps?.altitude_m ?? null,
          accuracyM: gps?.accuracy_m ?? null,
          capturedAt: capturedAt ? new Date(capturedAt) : null,
          imageCount: checked.length,
          reasons: [],
        })
        .returning();
      if (!row) throw new Error("insert returned no row");
      await tx.insert(images).values(
        checked.map((file, i) => ({
          id: imageIds[i] ?? "",
          submissionId,
          missionId,
          orgId: mission.orgId,
          position: i,
          storageKey: keys[i] ?? "",
          originalName: file.originalName,
          contentType: "image/jpeg",
          byteSize: file.size,
          sha256: file.sha256,
          width: file.width,
          height: file.height,
          exif: file.exif,
          lat: file.exif.gps?.lat ?? null,
          lng: file.exif.gps?.lng ?? null,
          altitudeM: file.exif.gps?.altitude_m ?? null,
          accuracyM: file.exif.gps?.accuracy_m ?? null,
          capturedAt: file.exif.captured_at ? new Date(file.exif.captured_at) : null,
          deviceMake: file.exif.make,
          deviceModel: file.exif.model,
          orientation: file.exif.orientation,
          directionDeg: file.exif.gps?.direction_deg ?? null,
        })),
      );
      if (assignment) {
        const [submitted] = await tx
          .update(assignments)
          .set({ status: "submitted", submissionId, imageId: imageIds[0] ?? null, updatedAt: new Date() })
          .where(and(eq(assignments.id, assignment.id), eq(assignments.zoomerId, zoomerId), eq(assignments.status, "reserved")))
          .returning({ id: assignments.id });
        if (!submitted) throw new ApiError(409, "assignment_not_reserved", "The task is no longer reserved by you; take it again.");
      }
      await recordEvent(tx, {
        orgId: mission.orgId,
        type: "submission.received",
        data: {
          submission_id: submissionId,
          mission_id: missionId,
          zoomer_id: zoomerId,
          image_count: checked.length,
          location: gps ? { lat: gps.lat, lng: gps.lng } : null,
        },
      });
      await enqueueJob(tx, "qa", { submission_id: submissionId });
      return serializeSubmission(row);
    });
    ctx.missionCache.invalidate(missionId);
    return received;
  } catch (error) {
    await Promise.all(storedKeys.map((key) => ctx.store.delete(key).catch(() => undefined)));
    throw error;
  } finally {
    await removeTempFiles(upload.files);
  }
}
