import type { images, submissions } from "@/lib/db/schema";
import type { ExifSummary } from "@/lib/photos/read-exif";
import { EMPTY_EXIF } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import type { ANGLES, ImageRecord, Submission, SubmissionFeature } from "@/lib/schemas/submission";
import { signImageUrl, urlExpiry } from "@/lib/service/cdn/signed-url";
import { cdnBaseUrl, type ServiceContext } from "@/lib/service/context";
import { isoOrNull } from "@/lib/service/iso-or-null";

export type SubmissionRow = typeof submissions.$inferSelect;
export type ImageRow = typeof images.$inferSelect;

/** The phone's own evidence sent with the photo, and what it measures against the EXIF. */
export function serializeDeviceEvidence(row: SubmissionRow): Submission["device_evidence"] {
  return {
    position: row.deviceLat !== null && row.deviceLng !== null ? { lat: row.deviceLat, lng: row.deviceLng, accuracy_m: row.deviceAccuracyM ?? 0 } : null,
    captured_at: isoOrNull(row.deviceCapturedAt),
    heading_deg: row.deviceHeadingDeg,
    distance_from_exif_m: row.deviceExifDistanceM,
    capture_to_upload_s: row.captureToUploadS,
  };
}

export function serializeSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    mission_id: row.missionId,
    zoomer_id: row.zoomerId,
    status: row.status,
    angle: row.angle as (typeof ANGLES)[number] | null,
    note: row.note,
    image_count: row.imageCount,
    location: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    altitude_m: row.altitudeM,
    accuracy_m: row.accuracyM,
    captured_at: isoOrNull(row.capturedAt),
    device_evidence: serializeDeviceEvidence(row),
    reasons: Array.isArray(row.reasons) ? (row.reasons as string[]) : [],
    created_at: row.createdAt.toISOString(),
    decided_at: isoOrNull(row.decidedAt),
  };
}

export function submissionFeature(row: SubmissionRow): SubmissionFeature {
  return {
    type: "Feature",
    id: row.id,
    geometry: row.lat !== null && row.lng !== null ? { type: "Point", coordinates: [row.lng, row.lat] } : null,
    properties: {
      submission_id: row.id,
      mission_id: row.missionId,
      status: row.status,
      captured_at: isoOrNull(row.capturedAt),
      altitude_m: row.altitudeM,
      accuracy_m: row.accuracyM,
      image_count: row.imageCount,
      created_at: row.createdAt.toISOString(),
    },
  };
}

export function serializeImage(row: ImageRow, ctx: Pick<ServiceContext, "cdnSecret" | "config">): ImageRecord {
  const sign = { secret: ctx.cdnSecret, cdnUrl: cdnBaseUrl(ctx.config), ttlSeconds: ctx.config.cdnUrlTtlSeconds };
  return {
    id: row.id,
    submission_id: row.submissionId,
    mission_id: row.missionId,
    position: row.position,
    url: signImageUrl(row.id, "original", sign),
    preview_url: row.previewKey ? signImageUrl(row.id, "preview", sign) : null,
    thumbnail_url: row.thumbnailKey ? signImageUrl(row.id, "thumbnail", sign) : null,
    urls_expire_at: new Date(urlExpiry(sign.ttlSeconds) * 1000).toISOString(),
    content_type: row.contentType,
    byte_size: row.byteSize,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    original_name: row.originalName,
    exif: (row.exif as ExifSummary | null) ?? EMPTY_EXIF,
    qa: (row.qa as QaCheck[] | null) ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
