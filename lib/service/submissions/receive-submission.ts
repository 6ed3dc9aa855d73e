// Field intake: takes a zoomer's upload, checks every file (type by magic bytes, pixel count from
// the header before any decoding), keeps the original bytes exactly, and records the submission,
// its images, the device evidence, the submission.received event and the QA job in one
// transaction. On any failure nothing of the submission remains: stored objects are removed.
// Two doors (a multipart body: receive-multipart.ts; a finished tus upload: complete-field-upload.ts)
// and one intake operation behind them (take-in-photos.ts), which ends here in recordSubmission.
import { and, eq, sql } from "drizzle-orm";
import { open } from "node:fs/promises";
import { assignments, images, missions, submissions } from "@/lib/db/schema";
import { measureDeviceEvidence, parseDeviceEvidence, type DeviceEvidence } from "@/lib/verification/device-evidence";
import { createId } from "@/lib/ids/create-id";
import { readDimensions } from "@/lib/photos/analyse-image";
import { HEIF_HEADER_BYTES, readHeifHeader, type HeifHeader } from "@/lib/photos/heif-header";
import { readJpegHeader } from "@/lib/photos/jpeg-header-length";
import { photoFileExtension, type PhotoContentType } from "@/lib/photos/photo-types";
import { readExif, readHeifExif, type ExifSummary } from "@/lib/photos/read-exif";
import { sniffImageType } from "@/lib/photos/sniff-image-type";
import { ANGLES } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/queue/queue";
import type { ObjectStore } from "@/lib/service/storage/object-store";
import type { UploadedFile } from "./parse-upload";
import { serializeSubmission } from "./serialize-submission";
import type { Submission } from "@/lib/schemas/submission";

/** What the zoomer said about the photo, validated. */
export interface SubmissionFields {
  angle: string | null;
  note: string | null;
  evidence: DeviceEvidence;
}

export interface RecordSubmissionOptions {
  ctx: ServiceContext;
  zoomerId: string;
  missionId: string;
  /** Finished temp files (consumed: moved into the store); the caller removes what is left. */
  files: UploadedFile[];
  fields: SubmissionFields;
  assignment?: { id: string; angle: string };
  /** Exactly once (take-in-photos.ts, intakeKey): a second submission under the same key throws IntakeKeyTaken. */
  intakeKey: string;
}

/** The form fields the multipart routes take besides the photos. */
export const SUBMISSION_FORM_FIELDS = ["angle", "note", "device_position", "captured_at", "heading_deg"] as const;

interface CheckedFile extends UploadedFile {
  width: number;
  height: number;
  exif: ExifSummary;
  /** By the magic bytes: what the original is stored and served as. */
  contentType: PhotoContentType;
}

export const MAX_NOTE_LENGTH = 2000;

export async function assertOpen(ctx: ServiceContext, missionId: string, viaAssignment: boolean): Promise<{ orgId: string }> {
  const [mission] = await ctx.db
    .select({ status: missions.status, orderId: missions.orderId, orgId: missions.orgId })
    .from(missions)
    .where(eq(missions.id, missionId))
    .limit(1);
  if (!mission) throw notFound("mission");
  if (mission.status !== "active") throw new ApiError(409, "mission_not_active", `The mission is ${mission.status}; it takes no more submissions.`);
  if (mission.orderId && !viaAssignment) {
    throw new ApiError(409, "take_the_task", "This mission belongs to an order: take one of its tasks (GET /field/assignments) and submit the photo there.");
  }
  return { orgId: mission.orgId };
}

/**
 * Photos must be JPEG or HEIC/HEIF (a phone's two formats), by their magic bytes (the first bytes
 * suffice: resumable uploads check them early). Returns the content type the original keeps.
 */
export function assertPhotoType(head: Uint8Array, name: string): PhotoContentType {
  const type = sniffImageType(head);
  if (type.kind === "jpeg" || type.kind === "heif") return type.mime;
  const what = type.kind === "other" ? type.mime : "not an image we recognise";
  throw new ApiError(415, "unsupported_image_type", `"${name}" is ${what}. Photos must be JPEG or HEIC/HEIF, as a phone's camera takes them.`);
}

const tooManyPixels = (name: string, { width, height }: { width: number; height: number }, maxPixels: number) =>
  new ApiError(413, "too_many_pixels", `"${name}" is ${width}×${height} px; at most ${maxPixels.toLocaleString("en")} pixels are accepted.`);

/** A HEIF's header (ftyp + meta) from the head kept while streaming, or else from the start of the temp file. */
async function heifHeader(file: UploadedFile): Promise<HeifHeader | null> {
  const fromHead = readHeifHeader(file.head);
  if (fromHead || file.size <= file.head.length) return fromHead;
  const handle = await open(file.tempPath, "r");
  try {
    const buffer = Buffer.allocUnsafe(Math.min(file.size, HEIF_HEADER_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return readHeifHeader(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** A HEIC/HEIF: the pixel cap from its primary image's ispe (nothing is decoded at intake), EXIF from its Exif item. */
async function checkHeif(file: UploadedFile, contentType: PhotoContentType, name: string, maxPixels: number): Promise<CheckedFile> {
  const header = await heifHeader(file);
  if (!header) throw new ApiError(422, "unreadable_image", `"${name}" is not a readable HEIC/HEIF image (no primary image with a size in its header).`);
  if (header.width * header.height > maxPixels) throw tooManyPixels(name, header, maxPixels);
  // The Exif item often lies after the image data: from the head when it lies there, else only its bytes from the file.
  const exif = await readHeifExif(header.exif, file.head, file.tempPath);
  return { ...file, width: header.width, height: header.height, exif, contentType };
}

/** Type by magic bytes, pixel cap from the header, EXIF; exported for the photo-intake benchmark. */
export async function checkFile(file: UploadedFile, maxPixels: number): Promise<CheckedFile> {
  const name = file.originalName ?? "photo";
  const contentType = assertPhotoType(file.head, name);
  if (contentType !== "image/jpeg") return checkHeif(file, contentType, name, maxPixels);
  // The header (SOF, EXIF) usually fits in the head kept while streaming: then it is read from
  // memory and the temp file is not opened again, and a plain frame's size is read from its SOF
  // segment (what sharp's header pass reports, without a trip to libvips' thread); sharp reads the rest.
  const header = readJpegHeader(file.head);
  const source = header === null ? file.tempPath : Buffer.from(file.head.buffer, file.head.byteOffset, file.head.byteLength);
  const dimensions = header?.frame ?? (await readDimensions(source));
  if (!dimensions) throw new ApiError(422, "unreadable_image", `"${name}" is not a readable JPEG.`);
  if (dimensions.width * dimensions.height > maxPixels) throw tooManyPixels(name, dimensions, maxPixels);
  // EXIF sits in the header (APP1, before the scan): exifr is given those bytes, not the whole head.
  const exif = await readExif(header === null ? file.tempPath : file.head.subarray(0, header.length));
  return { ...file, ...dimensions, exif, contentType };
}

/**
 * Moves an upload's temp file into the store under `key`, checked there against the SHA-256
 * measured while parsing; marks it consumed, so the caller's clean-up leaves it alone. Exported
 * for the photo-intake benchmark.
 */
export async function storeUpload(store: ObjectStore, key: string, file: UploadedFile, contentType: PhotoContentType = "image/jpeg"): Promise<void> {
  // Written by parseUpload or the tus store (hard-linked or spooled): owner-only, its size counted.
  await store.putFile(key, file.tempPath, { sha256: file.sha256, contentType, measured: { size: file.size, ownerOnly: true } });
  file.consumed = true;
}

/** Validates the angle, note and device evidence a zoomer sent (form fields or tus metadata). */
export function validateSubmissionFields(fields: Record<string, string | undefined>, where: "body" | "header" = "body"): SubmissionFields {
  const angle = fields.angle?.trim() || null;
  if (angle !== null && !(ANGLES as readonly string[]).includes(angle)) {
    throw new ApiError(422, "validation_failed", "Unknown angle.", { errors: [{ pointer: "angle", in: where, message: `Use one of ${ANGLES.join(", ")}.` }] });
  }
  const note = fields.note?.trim() || null;
  if (note !== null && note.length > MAX_NOTE_LENGTH) {
    throw new ApiError(422, "validation_failed", "Note too long.", {
      errors: [{ pointer: "note", in: where, message: `At most ${MAX_NOTE_LENGTH} characters.` }],
    });
  }
  const { evidence, errors } = parseDeviceEvidence(fields);
  if (errors.length > 0) {
    throw new ApiError(422, "validation_failed", "The device evidence is not valid; see errors[].", {
      errors: errors.map((e) => ({ pointer: e.pointer, in: where, message: e.message })),
    });
  }
  return { angle, note, evidence };
}

/** The intake key is taken (the same photos, recorded by another request at the same moment): nothing of this one remains. */
export class IntakeKeyTaken extends Error {}

export async function recordSubmission({ ctx, zoomerId, missionId, files, fields, assignment, intakeKey }: RecordSubmissionOptions): Promise<Submission> {
  const { orgId } = await assertOpen(ctx, missionId, assignment !== undefined);
  const { uploads } = ctx.config;
  const storedKeys: string[] = [];
  try {
    if (assignment) {
      if (fields.angle !== null && fields.angle !== assignment.angle) {
        throw new ApiError(422, "validation_failed", "This task is for another angle.", {
          errors: [{ pointer: "angle", in: "body", message: `This task asks for "${assignment.angle}"; leave angle out or send that.` }],
        });
      }
      fields = { ...fields, angle: assignment.angle };
    }
    const checked: CheckedFile[] = [];
    for (const file of files) checked.push(await checkFile(file, uploads.maxPixels));
    const submissionId = createId("submission");
    const imageIds = checked.map(() => createId("image"));
    const located = checked.find((f) => f.exif.gps);
    const gps = located?.exif.gps ?? null;
    const capturedAt = checked.find((f) => f.exif.captured_at)?.exif.captured_at ?? null;
    const { evidence } = fields;
    const measured = measureDeviceEvidence({ evidence, exifPosition: gps, exifCapturedAt: capturedAt, receivedAt: new Date() });

    // Stored before the transaction (an upload to object storage must not hold a database
    // transaction open), each checked against the SHA-256 measured while parsing; removed again
    // below if anything after fails, so a refused submission leaves no object behind.
    // The extension follows the bytes (original.jpg, original.heic, original.heif).
    const keys = imageIds.map((id, i) => `${orgId}/${missionId}/${id}/original.${photoFileExtension(checked[i]?.contentType ?? "image/jpeg")}`);
    for (const [i, file] of files.entries()) {
      const key = keys[i] ?? "";
      storedKeys.push(key);
      await storeUpload(ctx.store, key, file, checked[i]?.contentType);
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
          intakeKey,
          deviceLat: evidence.position?.lat ?? null,
          deviceLng: evidence.position?.lng ?? null,
          deviceAccuracyM: evidence.position?.accuracy_m ?? null,
          deviceCapturedAt: evidence.captured_at ? new Date(evidence.captured_at) : null,
          deviceHeadingDeg: evidence.heading_deg,
          deviceExifDistanceM: measured.device_exif_distance_m,
          captureToUploadS: measured.capture_to_upload_s,
        })
        .onConflictDoNothing({ target: submissions.intakeKey })
        .returning();
      if (!row) throw new IntakeKeyTaken();
      await tx.insert(images).values(
        checked.map((file, i) => ({
          id: imageIds[i] ?? "",
          submissionId,
          missionId,
          orgId: mission.orgId,
          position: i,
          storageKey: keys[i] ?? "",
          originalName: file.originalName,
          contentType: file.contentType,
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
  }
}
