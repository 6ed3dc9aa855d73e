import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { and, asc, eq } from "drizzle-orm";
import { images, submissions } from "@/lib/db/schema";
import { PolygonSchema } from "@/lib/schemas/mission";
import { LocalisableSchema } from "@/lib/schemas/order";
import { SubmissionSchema } from "@/lib/schemas/submission";
import { notFound } from "@/lib/service/errors";
import { serializeImage, serializeSubmission } from "@/lib/service/submissions/serialize-submission";
import { submissionReasonCodes } from "@/lib/service/qa/reason-codes";
import { openMissionsNear } from "@/lib/service/field/open-missions-near";
import { authenticate } from "../middleware/authenticate";
import { errorResponses, jsonResponse, security, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const OpenMissionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    bounds: PolygonSchema,
    required_images: z.number().int(),
    images_still_needed: z.number().int(),
    distance_m: z.number().openapi({ description: "Distance from the point to the mission area; 0 inside it." }),
    created_at: z.string(),
  })
  .openapi("OpenMission");

/** Where the zoomer stands, and how far to look: for open missions and for order tasks alike. */
export const NearQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90).openapi({ example: 43.7696 }),
  lng: z.coerce.number().min(-180).max(180).openapi({ example: 11.2558 }),
  radius_km: z.coerce.number().positive().max(200).default(10),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const nearRoute = createRoute({
  method: "get",
  path: "/field/missions",
  operationId: "listNearbyMissions",
  tags: ["Field"],
  summary: "Open missions near a point (zoomers)",
  description: "Active missions within `radius_km` of the point, nearest first, with public fields only.",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: {
    query: NearQuerySchema,
  },
  responses: { 200: jsonResponse(z.object({ data: z.array(OpenMissionSchema) }).openapi("OpenMissionList"), "Open missions."), ...errorResponses(422) },
});

const ownSubmissionRoute = createRoute({
  method: "get",
  path: "/field/submissions/{id}",
  operationId: "getFieldSubmission",
  tags: ["Field"],
  summary: "A zoomer's own submission and its QA verdict",
  description: "Only the zoomer who submitted it can read it here; partners use GET /submissions/{id}.",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: {
    params: z.object({
      id: z
        .string()
        .max(MAX_ID_LENGTH)
        .openapi({ param: { name: "id", in: "path" } }),
    }),
  },
  responses: {
    200: jsonResponse(
      SubmissionSchema.extend({
        thumbnails: z.array(z.string().nullable()),
        reason_codes: z
          .array(
            LocalisableSchema.extend({
              photo: z.number().int().optional().openapi({ description: "Which photo (1-based) the reason is about, when the submission has several." }),
            }),
          )
          .openapi({ description: "`reasons` as stable codes and figures, for a page in the zoomer's language (`text`: an English sentence without a code)." }),
      }).openapi("FieldSubmission"),
      "The submission with thumbnail URLs of its photos.",
    ),
    ...errorResponses(404),
  },
});

export function registerFieldRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /field/missions – open missions near a point
  app.openapi(nearRoute, async (c) => {
    const { lat, lng, radius_km, limit } = c.req.valid("query");
    return c.json({ data: await openMissionsNear({ db: c.var.ctx.db, lat, lng, radiusKm: radius_km, limit }) }, 200);
  });

  // GET /field/submissions/:id – the zoomer's own submission
  app.openapi(ownSubmissionRoute, async (c) => {
    const { ctx, caller } = c.var;
    const [row] = await ctx.db
      .select()
      .from(submissions)
      .where(and(eq(submissions.id, c.req.valid("param").id), eq(submissions.zoomerId, caller.zoomerId ?? "")))
      .limit(1);
    if (!row) throw notFound("submission");
    const imageRows = await ctx.db.select().from(images).where(eq(images.submissionId, row.id)).orderBy(asc(images.position));
    return c.json(
      {
        ...serializeSubmission(row),
        thumbnails: imageRows.map((i) => serializeImage(i, ctx).thumbnail_url),
        reason_codes: submissionReasonCodes(row.status, imageRows),
      },
      200,
    );
  });
}
