// The mission concept's schemas: one source for the API's validation, its OpenAPI document, and
// (later) the dashboard's forms and actions.
import { z } from "@hono/zod-openapi";
import { MISSION_STATUSES } from "./statuses";
import { DEFAULT_POLYGON_LIMITS } from "@/lib/geo/polygon";
import { QaSettingsInputSchema, QaThresholdsSchema } from "./qa";

const Position = z.array(z.number()).min(2).max(3).openapi({ description: "[longitude, latitude] or [longitude, latitude, altitude]" });

// Per-array caps that follow from the vertex cap (a ring is at least 3 vertices plus the closing
// position), so that they are in the schema; the total across rings is checked with the geometry.
const MAX_RING_POSITIONS = DEFAULT_POLYGON_LIMITS.maxVertices + 1;
const MAX_RINGS = Math.floor(DEFAULT_POLYGON_LIMITS.maxVertices / 3);

export const PolygonSchema = z
  .object({
    type: z.literal("Polygon"),
    coordinates: z.array(z.array(Position).max(MAX_RING_POSITIONS)).min(1).max(MAX_RINGS),
  })
  .openapi("Polygon", {
    description:
      "GeoJSON Polygon (RFC 7946, WGS 84). Rings are closed (first position = last), have at least 4 positions, do not cross " +
      "themselves or each other; at most 1000 vertices and 2,500 km². Winding is normalised to the right-hand rule on output.",
    example: {
      type: "Polygon",
      coordinates: [
        [
          [11.255, 43.768],
          [11.262, 43.768],
          [11.262, 43.773],
          [11.255, 43.773],
          [11.255, 43.768],
        ],
      ],
    },
  });

export const MissionStatusSchema = z.enum(MISSION_STATUSES).openapi("MissionStatus");

export const MissionSchema = z
  .object({
    id: z.string().openapi({ example: "mission_01jd3m8k2b7yq4r6t9v0wxyzab" }),
    title: z.string(),
    description: z.string(),
    status: MissionStatusSchema,
    bounds: PolygonSchema,
    required_images: z.number().int(),
    submissions: z.number().int().openapi({ description: "Count of submissions received." }),
    approved_images: z
      .number()
      .int()
      .openapi({
        description:
          "Images in approved submissions (for an order's mission: photos that passed verification). May exceed required_images: " +
          "submissions already received when the mission completed are still checked and kept (see extra_images).",
      }),
    extra_images: z.number().int().openapi({
      description:
        "Approved images beyond required_images (max(0, approved_images − required_images)); progress is approved_images − extra_images, never above the target.",
    }),
    area_m2: z.number().openapi({ description: "Geodesic area of the bounds in square metres." }),
    qa: QaThresholdsSchema.openapi({ description: "The QA thresholds in force: defaults, overridden by what the mission set." }),
    order_id: z.string().nullable().openapi({ description: "The order this mission was dispatched from, if any." }),
    order_reference: z
      .string()
      .nullable()
      .openapi({ description: "That order's client_reference, when it has one: which of your orders this mission serves, without looking it up." }),
    location_id: z.string().nullable(),
    deadline_at: z.string().nullable().openapi({
      format: "date-time",
      description:
        "For an order's mission: when its photos are due (the plan's delivery promise, or the end of the cycle's window). Null for a mission you created.",
    }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
    completed_at: z.string().nullable().openapi({ format: "date-time" }),
    cancelled_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Mission");

export type Mission = z.infer<typeof MissionSchema>;

const title = z.string().trim().min(1, "Give the mission a title.").max(200, "At most 200 characters.");
const description = z.string().max(5000, "At most 5000 characters.");
const requiredImages = z.number().int("Must be a whole number.").min(1).max(10_000);

// Server-owned fields (id, status, counts, org, timestamps) are not in these schemas and strict
// objects refuse them: a client can never set them, and it learns so instead of being ignored.
export const CreateMissionSchema = z
  .strictObject({
    title,
    description: description.optional(),
    bounds: PolygonSchema,
    required_images: requiredImages.optional(),
    requiredImages: requiredImages.optional().openapi({ description: "Alias of required_images (SDK preview name)." }),
    qa: QaSettingsInputSchema.optional(),
  })
  .superRefine((body, ctx) => {
    // The document says so too (anyOf below): one of the two names is required.
    if (body.required_images === undefined && body.requiredImages === undefined) {
      ctx.addIssue({ code: "custom", path: ["required_images"], message: "Say how many images the mission needs." });
    }
    if (body.required_images !== undefined && body.requiredImages !== undefined && body.required_images !== body.requiredImages) {
      ctx.addIssue({ code: "custom", path: ["requiredImages"], message: "Differs from required_images; send one of them." });
    }
  })
  .openapi("CreateMission", { anyOf: [{ required: ["required_images"] }, { required: ["requiredImages"] }] });

export type CreateMissionInput = z.infer<typeof CreateMissionSchema>;

export const UpdateMissionSchema = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    bounds: PolygonSchema.optional(),
    required_images: requiredImages.optional(),
    requiredImages: requiredImages.optional(),
    qa: QaSettingsInputSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "Send at least one field to change." })
  .openapi("UpdateMission", { minProperties: 1 });

export type UpdateMissionInput = z.infer<typeof UpdateMissionSchema>;

const bboxPattern = /^-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?$/;

export const MissionListQuerySchema = z.object({
  status: z.string().max(200).optional().openapi({
    description: "Comma-separated statuses (active, completed, cancelled) or `all`. Default: active.",
    example: "active,completed",
  }),
  q: z.string().max(200).optional().openapi({ description: "Text search in title and description (case-insensitive)." }),
  created_since: z.iso.datetime({ offset: true }).max(64).optional().openapi({ description: "Only missions created at or after this time." }),
  updated_since: z.iso.datetime({ offset: true }).max(64).optional().openapi({ description: "Only missions updated at or after this time." }),
  bbox: z
    .string()
    .max(200)
    .regex(bboxPattern, "Use minLng,minLat,maxLng,maxLat.")
    .optional()
    .openapi({ description: "minLng,minLat,maxLng,maxLat — missions whose bounds' box intersects it.", example: "11.2,43.7,11.3,43.8" }),
});
