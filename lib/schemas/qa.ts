// QA thresholds (defaults, and what a mission may override) and the shape of a recorded check.
import { z } from "@hono/zod-openapi";

export const QA_CHECKS = [
  "decodable",
  "exif_present",
  "gps_present",
  "inside_bounds",
  "capture_time",
  "resolution",
  "sharpness",
  "exposure",
  "duplicate",
] as const;
export type QaCheckName = (typeof QA_CHECKS)[number];

export const QaThresholdsSchema = z
  .object({
    min_short_edge_px: z.number().int().min(1).max(20_000).openapi({ description: "Shorter image side, pixels.", example: 480 }),
    min_sharpness: z.number().min(0).openapi({ description: "Variance of the Laplacian on a 512 px greyscale rendition.", example: 40 }),
    min_brightness: z.number().min(0).max(255).openapi({ description: "Mean luminance, 0–255.", example: 35 }),
    max_brightness: z.number().min(0).max(255).openapi({ example: 225 }),
    location_tolerance_m: z.number().min(0).max(10_000).openapi({
      description: "Distance outside the bounds still accepted, metres (the photo's reported GPS accuracy is added, up to max_accuracy_m).",
      example: 25,
    }),
    max_accuracy_m: z.number().min(0).max(10_000).openapi({ description: "Largest GPS accuracy credited, metres.", example: 100 }),
    capture_time_tolerance_s: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .openapi({ description: "How long before the mission was created a photo may have been taken, seconds.", example: 900 }),
    max_clock_skew_s: z.number().int().min(0).max(86_400).openapi({ description: "How far in the future a capture time may be, seconds.", example: 300 }),
    duplicate_max_distance: z
      .number()
      .int()
      .min(0)
      .max(64)
      .openapi({ description: "Perceptual-hash distance (bits of 64) at or below which a photo counts as a near-duplicate.", example: 4 }),
  })
  .openapi("QaThresholds");

export type QaThresholds = z.infer<typeof QaThresholdsSchema>;

/** What a mission gets for the thresholds it does not set (the field page judges photos with them too). */
export const DEFAULT_QA_THRESHOLDS: QaThresholds = {
  min_short_edge_px: 480,
  min_sharpness: 40,
  min_brightness: 35,
  max_brightness: 225,
  location_tolerance_m: 25,
  max_accuracy_m: 100,
  capture_time_tolerance_s: 900,
  max_clock_skew_s: 300,
  duplicate_max_distance: 4,
};

/** What a mission may send: any subset of the thresholds. */
export const QaSettingsInputSchema = QaThresholdsSchema.partial().strict().openapi("QaSettings");

export const QaCheckSchema = z
  .object({
    check: z.enum(QA_CHECKS),
    passed: z.boolean(),
    value: z.union([z.number(), z.string(), z.boolean(), z.null()]).openapi({ description: "The measured value." }),
    threshold: z.union([z.number(), z.string(), z.null()]).openapi({ description: "What it was compared with." }),
    message: z.string().openapi({ description: "A sentence a person can read.", example: "Sharpness 12.3 is below 40: the photo is blurry." }),
    code: z.string().optional().openapi({
      description: "`message` as a stable code, so a page can say it in the reader's language (checks recorded before codes were added have none).",
      example: "qa.blurry",
    }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .openapi({ description: "The figures `code`'s sentence uses.", example: { value: 12.3, min: 40 } }),
  })
  .openapi("QaCheck");

export type QaCheck = z.infer<typeof QaCheckSchema>;
