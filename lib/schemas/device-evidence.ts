// What the zoomer's phone reported with a photo, as the API shows it on a submission and on a
// delivered order photo. Dependency-free (no service, no database), like the other vocabularies.
import { z } from "@hono/zod-openapi";

export const DeviceEvidenceSchema = z
  .object({
    position: z
      .object({ lat: z.number(), lng: z.number(), accuracy_m: z.number() })
      .nullable()
      .openapi({ description: "Where the phone said it was when the photo was taken (browser geolocation), with its accuracy." }),
    captured_at: z.string().nullable().openapi({ description: "When the phone said the photo was taken (UTC)." }),
    heading_deg: z.number().nullable().openapi({ description: "The phone's compass heading at capture (0 = north)." }),
    distance_from_exif_m: z
      .number()
      .nullable()
      .openapi({ description: "Metres between the phone's position and the photo's EXIF GPS; null when either is missing." }),
    capture_to_upload_s: z.number().nullable().openapi({ description: "Seconds from capture (EXIF time, else the phone's) to receipt." }),
  })
  .openapi("DeviceEvidence", {
    description:
      "What the zoomer's phone reported with the photo (field app or multipart `device_position`, `captured_at`, `heading_deg`), beside the EXIF. The `authenticity` check compares the phone's position with the EXIF GPS (a photo more than 100 m + the phone's accuracy away is held for review).",
  });
