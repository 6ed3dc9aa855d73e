// Submissions and images as the API shows them, and the spec's submission GeoJSON Feature.
import { z } from "@hono/zod-openapi";
import { SUBMISSION_STATUSES } from "./statuses";
import { ANGLES } from "@/lib/orders/vocabulary";
import { DeviceEvidenceSchema } from "./device-evidence";
import { QaCheckSchema } from "./qa";

export const SubmissionStatusSchema = z.enum(SUBMISSION_STATUSES).openapi("SubmissionStatus", {
  description: "received → processing → approved | rejected",
});

/** The spec's angles; their home is the order vocabulary (lib/orders). */
export { ANGLES };

export const ExifSchema = z
  .object({
    present: z.boolean(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    orientation: z.number().int().nullable(),
    captured_at: z.string().nullable().openapi({ description: "UTC, ISO 8601." }),
    captured_at_local: z.string().nullable().openapi({ description: "The camera's local time as written." }),
    utc_offset: z.string().nullable().openapi({ example: "+02:00" }),
    captured_at_source: z.enum(["offset", "gps", "assumed_utc"]).nullable(),
    gps: z
      .object({
        lat: z.number(),
        lng: z.number(),
        altitude_m: z.number().nullable(),
        accuracy_m: z.number().nullable(),
        direction_deg: z.number().nullable(),
        direction_ref: z.enum(["true", "magnetic"]).nullable(),
      })
      .nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    software: z.string().nullable(),
    lens_model: z.string().nullable(),
  })
  .openapi("Exif");

export const ImageSchema = z
  .object({
    id: z.string().openapi({ example: "img_06h0…" }),
    submission_id: z.string(),
    mission_id: z.string(),
    position: z.number().int().openapi({ description: "Order within the submission, from 0." }),
    url: z.string().openapi({ description: "Signed, expiring CDN URL of the original bytes (EXIF preserved)." }),
    preview_url: z.string().nullable().openapi({ description: "Signed URL of a 1280 px preview (no GPS), once QA has run." }),
    thumbnail_url: z.string().nullable().openapi({ description: "Signed URL of a 320 px thumbnail (no GPS), once QA has run." }),
    urls_expire_at: z.string(),
    content_type: z.string(),
    byte_size: z.number().int(),
    sha256: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    original_name: z.string().nullable(),
    exif: ExifSchema,
    qa: z.array(QaCheckSchema).nullable(),
    created_at: z.string(),
  })
  .openapi("Image");

export const LocationSchema = z.object({ lat: z.number(), lng: z.number() }).openapi("LatLng");

export const SubmissionSchema = z
  .object({
    id: z.string().openapi({ example: "sub_06h0…" }),
    mission_id: z.string(),
    zoomer_id: z.string().openapi({ example: "usr_06h0…" }),
    status: SubmissionStatusSchema,
    angle: z.enum(ANGLES).nullable(),
    note: z.string().nullable(),
    image_count: z.number().int(),
    location: LocationSchema.nullable().openapi({ description: "GPS of the first photo that has one." }),
    altitude_m: z.number().nullable(),
    accuracy_m: z.number().nullable(),
    captured_at: z.string().nullable(),
    device_evidence: DeviceEvidenceSchema,
    reasons: z.array(z.string()).openapi({ description: "Why QA rejected it; empty otherwise." }),
    created_at: z.string(),
    decided_at: z.string().nullable(),
  })
  .openapi("Submission");

/** A row of the JSON submissions list: the submission plus its first photo's thumbnail, so a list can be read at a glance. */
export const SubmissionListItemSchema = SubmissionSchema.extend({
  thumbnail_url: z.string().nullable().openapi({ description: "Signed URL of the first photo's 320 px thumbnail (no GPS), once QA has made it; null before." }),
}).openapi("SubmissionListItem");

export const SubmissionDetailSchema = SubmissionSchema.extend({ images: z.array(ImageSchema) }).openapi("SubmissionDetail");

export const SubmissionFeatureSchema = z
  .object({
    type: z.literal("Feature"),
    id: z.string(),
    geometry: z.object({ type: z.literal("Point"), coordinates: z.array(z.number()) }).nullable(),
    properties: z.object({
      submission_id: z.string(),
      mission_id: z.string(),
      status: SubmissionStatusSchema,
      captured_at: z.string().nullable(),
      altitude_m: z.number().nullable(),
      accuracy_m: z.number().nullable(),
      image_count: z.number().int(),
      created_at: z.string(),
    }),
  })
  .openapi("SubmissionFeature", { description: "The spec's submission location Feature (RFC 7946). geometry is null when no photo had GPS." });

export const SubmissionFeatureCollectionSchema = z
  .object({
    type: z.literal("FeatureCollection"),
    features: z.array(SubmissionFeatureSchema),
    meta: z.object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int() }),
  })
  .openapi("SubmissionFeatureCollection");

export const SubmissionPointSchema = z
  .object({
    type: z.literal("Feature"),
    geometry: z.object({
      type: z.literal("Point"),
      coordinates: z.array(z.number()).length(2).openapi({ description: "[longitude, latitude], WGS 84." }),
    }),
    properties: z.object({
      id: z.string().openapi({ description: "The submission's id.", example: "sub_06h0m4b7yq4r6t9v0wxyzab3k" }),
      status: SubmissionStatusSchema,
      received_at: z.string().openapi({ description: "When it was received (ISO 8601, UTC).", example: "2026-11-21T06:30:07.123Z" }),
    }),
  })
  .openapi("SubmissionPoint");

export const SubmissionPointCollectionSchema = z
  .object({
    type: z.literal("FeatureCollection"),
    features: z.array(SubmissionPointSchema),
    meta: z.object({
      count: z.number().int().openapi({ description: "Features in this collection." }),
      unlocated: z.number().int().openapi({ description: "Submissions matching the filters that have no location (not in features)." }),
    }),
  })
  .openapi("SubmissionPointCollection", {
    description: "Every located submission of a mission matching the filters, newest first, in one response (RFC 7946).",
    example: {
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          geometry: { type: "Point", coordinates: [11.2575, 43.7705] },
          properties: { id: "sub_06h0m4b7yq4r6t9v0wxyzab3k", status: "approved", received_at: "2026-11-21T06:30:07.123Z" },
        },
      ],
      meta: { count: 1, unlocated: 0 },
    },
  });

export type SubmissionPointCollection = z.infer<typeof SubmissionPointCollectionSchema>;
export type Submission = z.infer<typeof SubmissionSchema>;
export type SubmissionDetail = z.infer<typeof SubmissionDetailSchema>;
export type ImageRecord = z.infer<typeof ImageSchema>;
export type SubmissionFeature = z.infer<typeof SubmissionFeatureSchema>;
export type SubmissionListItem = z.infer<typeof SubmissionListItemSchema>;
export type SubmissionFeatureCollection = z.infer<typeof SubmissionFeatureCollectionSchema>;

export const SubmissionListQuerySchema = z.object({
  status: z.string().max(200).optional().openapi({ description: "Comma-separated statuses (received, processing, approved, rejected). Default: all." }),
  since: z.iso.datetime({ offset: true }).max(64).optional().openapi({ description: "Received at or after this time." }),
  until: z.iso.datetime({ offset: true }).max(64).optional().openapi({ description: "Received before this time." }),
  bbox: z.string().max(200).optional().openapi({ description: "minLng,minLat,maxLng,maxLat — submissions located inside it.", example: "11.2,43.7,11.3,43.8" }),
  format: z.enum(["json", "geojson"]).optional().openapi({ description: "geojson: a FeatureCollection (same as Accept: application/geo+json)." }),
});

export const SubmissionPointsQuerySchema = SubmissionListQuerySchema.pick({ status: true, since: true, until: true });
