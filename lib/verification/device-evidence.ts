// The device's own evidence sent with a field photo — where the phone said it was (browser
// geolocation with its accuracy), when it took the photo and which way it faced — as the tus
// Upload-Metadata and the multipart form fields carry it, and what it measures against the
// photo's EXIF. Dependency-free apart from zod and lib/geo, so the field page can build and check
// the same values it sends.
import { z } from "zod";
import { distanceM } from "@/lib/geo/bearing";

export interface DevicePosition {
  lat: number;
  lng: number;
  accuracy_m: number;
}

export interface DeviceEvidence {
  position: DevicePosition | null;
  captured_at: string | null;
  heading_deg: number | null;
}

/** The text fields as sent: `device_position` = `lat,lng,accuracy_m`, `captured_at` ISO 8601, `heading_deg` 0–360. */
export interface DeviceEvidenceFields {
  device_position?: string | null;
  captured_at?: string | null;
  heading_deg?: string | null;
}

export interface EvidenceFieldError {
  pointer: keyof DeviceEvidenceFields;
  message: string;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const PositionSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180), accuracy_m: z.number().min(0).max(100_000) });
/** A capture claimed more than this far in the future is a wrong clock, not evidence. */
const FUTURE_SLACK_MS = 10 * 60_000;

export function formatDevicePosition(position: DevicePosition): string {
  return `${position.lat},${position.lng},${position.accuracy_m}`;
}

/** Parses and validates the evidence fields; absent or empty fields are null, not errors. */
export function parseDeviceEvidence(fields: DeviceEvidenceFields, now = new Date()): { evidence: DeviceEvidence; errors: EvidenceFieldError[] } {
  const errors: EvidenceFieldError[] = [];
  const evidence: DeviceEvidence = { position: null, captured_at: null, heading_deg: null };

  const position = fields.device_position?.trim();
  if (position) {
    const parts = position.split(",").map((p) => p.trim());
    const parsed =
      parts.length === 3 && parts.every((p) => NUMBER.test(p))
        ? PositionSchema.safeParse({ lat: Number(parts[0]), lng: Number(parts[1]), accuracy_m: Number(parts[2]) })
        : null;
    if (parsed?.success) evidence.position = parsed.data;
    else
      errors.push({
        pointer: "device_position",
        message: "Send `lat,lng,accuracy_m` in decimal degrees and metres, e.g. 43.7705,11.2575,12 (lat −90…90, lng −180…180, accuracy 0–100000).",
      });
  }

  const captured = fields.captured_at?.trim();
  if (captured) {
    const time = z.iso.datetime({ offset: true }).safeParse(captured).success ? new Date(captured) : null;
    if (!time) errors.push({ pointer: "captured_at", message: "Send an ISO 8601 time with its offset, e.g. 2026-11-27T14:32:05Z." });
    else if (time.getTime() > now.getTime() + FUTURE_SLACK_MS)
      errors.push({ pointer: "captured_at", message: "The capture time is in the future; check the phone's clock." });
    else evidence.captured_at = time.toISOString();
  }

  const heading = fields.heading_deg?.trim();
  if (heading) {
    const value = NUMBER.test(heading) ? Number(heading) : Number.NaN;
    if (!(value >= 0 && value <= 360)) errors.push({ pointer: "heading_deg", message: "Send the compass heading in degrees, 0–360 (0 = north)." });
    else evidence.heading_deg = value % 360;
  }
  return { evidence, errors };
}

export interface EvidenceMeasures {
  /** Metres between the device's position and the photo's EXIF GPS; null when either is missing. */
  device_exif_distance_m: number | null;
  /** Seconds from capture (EXIF time, else the device's) to receipt; null without a capture time. */
  capture_to_upload_s: number | null;
}

export function measureDeviceEvidence(options: {
  evidence: DeviceEvidence;
  exifPosition: { lat: number; lng: number } | null;
  exifCapturedAt: string | null;
  receivedAt: Date;
}): EvidenceMeasures {
  const { evidence, exifPosition, exifCapturedAt, receivedAt } = options;
  const distance = evidence.position && exifPosition ? distanceM(evidence.position, exifPosition) : null;
  const capturedAt = exifCapturedAt ?? evidence.captured_at;
  return {
    device_exif_distance_m: distance === null ? null : Math.round(distance * 10) / 10,
    capture_to_upload_s: capturedAt ? Math.round((receivedAt.getTime() - new Date(capturedAt).getTime()) / 1000) : null,
  };
}

// The reviewers' sentences live without zod (describe-device-evidence.ts): the dashboard's client
// bundle imports them, and zod there probes for eval, which the pages' CSP reports.
export { describeCaptureToUpload, describeDeviceDistance } from "./describe-device-evidence";
