import { createRoute, z, type OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { Readable } from "node:stream";
import { and, asc, eq } from "drizzle-orm";
import { images, submissions } from "@/lib/db/schema";
import {
  ANGLES,
  ImageSchema,
  SubmissionDetailSchema,
  SubmissionFeatureCollectionSchema,
  SubmissionListItemSchema,
  SubmissionListQuerySchema,
  SubmissionPointCollectionSchema,
  SubmissionPointsQuerySchema,
  SubmissionSchema,
} from "@/lib/schemas/submission";
import { ApiError, notFound } from "@/lib/service/errors";
import { exportMission } from "@/lib/service/export/export-mission";
import { getMissionRow } from "@/lib/service/missions/get-mission";
import { acceptedEncodings } from "@/lib/http/content-encoding";
import { getSubmissionPoints } from "@/lib/service/submissions/get-submission-points";
import { GEOJSON_MEDIA_TYPE, MAX_GEOJSON_PAGE, MAX_JSON_PAGE, listMissionSubmissions } from "@/lib/service/submissions/list-mission-submissions";
import { MAX_NOTE_LENGTH } from "@/lib/service/submissions/receive-submission";
import { receiveSubmission } from "@/lib/service/submissions/receive-multipart";
import { serializeImage, serializeSubmission } from "@/lib/service/submissions/serialize-submission";
import { authenticate, callerOrg } from "../middleware/authenticate";
import { assertStorableInput } from "../storable-input";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, rateLimitHeaderDocs, security, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Submissions"];
const idParam = (name: string, example: string) =>
  z.object({
    id: z
      .string()
      .max(MAX_ID_LENGTH)
      .openapi({ param: { name, in: "path" }, example }),
  });
const MissionIdParam = idParam("id", "mission_06h0…");
const SubmissionIdParam = idParam("id", "sub_06h0…");

// Documented here, served by a plain handler: the upload is streamed to disk by the intake module,
// never parsed into memory by a body validator. Its limits come from the deployment's settings.
const receiveRoute = (limits: { maxPhotos: number; maxFileBytes: number }): RouteConfig => ({
  method: "post",
  path: "/missions/{id}/submissions",
  operationId: "createSubmission",
  tags,
  summary: "Submit photos to a mission (zoomers)",
  description:
    `multipart/form-data with 1–${limits.maxPhotos} \`photos\` parts (JPEG or HEIC/HEIF — the iPhone default, kept byte for byte with JPEG renditions — of at most ${limits.maxFileBytes} bytes each; decided by the file's bytes, not its name), optional \`angle\` and \`note\`. ` +
    "Originals are kept byte for byte. Answers 202 with the submission `received`; QA runs in the background and emits " +
    "`submission.approved` or `submission.rejected`. Completed or cancelled missions answer 409. Nothing is stored when any photo is refused. " +
    "Exactly once: the same photos sent again to the same mission by the same zoomer (here or as a resumable upload, /field/uploads; at any time, " +
    "also at the same moment or while QA checks the first copy) make no second submission: the answer is 202 with that one submission as it stands now. " +
    "The key is zoomer + mission + the set of the photos' SHA-256s (in any order). Another zoomer's identical photo is a submission of its own, rejected as a duplicate.",
  security: security("submissions:write"),
  request: {
    params: MissionIdParam,
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: z.object({
            photos: z
              .array(z.string().openapi({ format: "binary", maxLength: limits.maxFileBytes }))
              .min(1)
              .max(limits.maxPhotos)
              .openapi({ description: "One part per photo (JPEG or HEIC/HEIF)." }),
            angle: z.enum(ANGLES).optional().openapi({ description: "What the photos show." }),
            note: z
              .string()
              .max(MAX_NOTE_LENGTH)
              .optional()
              .openapi({ description: `Up to ${MAX_NOTE_LENGTH} characters.` }),
          }),
        },
      },
    },
  },
  responses: {
    202: jsonResponse(SubmissionSchema, "The submission, received (QA follows); for photos sent before, the one submission they made, as it stands."),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/missions/{id}/submissions",
  operationId: "listMissionSubmissions",
  tags,
  summary: "List a mission's submissions",
  description:
    "Newest first. As JSON (list envelope) or, with `format=geojson` or `Accept: application/geo+json`, as a GeoJSON FeatureCollection " +
    `of the spec's submission Feature (RFC 7946). per_page: at most ${MAX_JSON_PAGE} for JSON, ${MAX_GEOJSON_PAGE} for GeoJSON.`,
  security: security("submissions:read"),
  middleware: [authenticate({ scope: "submissions:read" })] as const,
  request: {
    params: MissionIdParam,
    query: SubmissionListQuerySchema.extend({
      page: PagingQuery.page,
      per_page: z.coerce.number().int().min(1).max(MAX_GEOJSON_PAGE).default(20),
    }),
  },
  responses: {
    200: {
      description: "A page of submissions.",
      headers: rateLimitHeaderDocs,
      content: {
        "application/json": { schema: z.object({ data: z.array(SubmissionListItemSchema), meta: ListMetaSchema }).openapi("SubmissionList") },
        [GEOJSON_MEDIA_TYPE]: { schema: SubmissionFeatureCollectionSchema },
      },
    },
    ...errorResponses(404, 422),
  },
});

const cachingHeaderDocs = {
  ETag: { description: "Weak validator of this answer; send it back as If-None-Match.", schema: { type: "string" as const } },
  "Cache-Control": { description: "`private, no-cache`: keep it, but revalidate before each use.", schema: { type: "string" as const } },
};

const pointsRoute = createRoute({
  method: "get",
  path: "/missions/{id}/submission-points",
  operationId: "listSubmissionPoints",
  tags,
  summary: "Every located submission of a mission as GeoJSON points",
  description:
    "All located submissions matching the filters in one GeoJSON FeatureCollection (no paging), newest first, for a clustered map: " +
    "each Feature is a Point with `id`, `status` and `received_at`. Submissions without a location are only counted (`meta.unlocated`). " +
    "`status`, `since` and `until` work as on the submissions list. Answers carry a weak ETag: send it as If-None-Match to get 304 " +
    "while nothing has changed.",
  security: security("submissions:read"),
  middleware: [authenticate({ scope: "submissions:read" })] as const,
  request: { params: MissionIdParam, query: SubmissionPointsQuerySchema },
  responses: {
    200: {
      description: "The points.",
      headers: { ...rateLimitHeaderDocs, ...cachingHeaderDocs },
      content: { [GEOJSON_MEDIA_TYPE]: { schema: SubmissionPointCollectionSchema } },
    },
    304: { description: "Unchanged since the ETag sent as If-None-Match.", headers: { ...rateLimitHeaderDocs, ...cachingHeaderDocs } },
    ...errorResponses(404, 422),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/submissions/{id}",
  operationId: "getSubmission",
  tags,
  summary: "Get a submission with its images and QA result",
  description: "One submission with its images (signed CDN URLs, parsed EXIF) and its QA result, each check with its measured figure and verdict.",
  security: security("submissions:read"),
  middleware: [authenticate({ scope: "submissions:read" })] as const,
  request: { params: SubmissionIdParam },
  responses: { 200: jsonResponse(SubmissionDetailSchema, "The submission."), ...errorResponses(404) },
});

const imagesRoute = createRoute({
  method: "get",
  path: "/submissions/{id}/images",
  operationId: "listSubmissionImages",
  tags,
  summary: "List a submission's images",
  description: "Image records with signed, expiring CDN URLs (original bytes with EXIF, preview, thumbnail), SHA-256, dimensions, parsed EXIF and QA checks.",
  security: security("submissions:read"),
  middleware: [authenticate({ scope: "submissions:read" })] as const,
  request: { params: SubmissionIdParam },
  responses: { 200: jsonResponse(z.object({ data: z.array(ImageSchema) }).openapi("ImageList"), "The images."), ...errorResponses(404) },
});

const exportRoute = createRoute({
  method: "get",
  path: "/missions/{id}/export",
  operationId: "exportMission",
  tags,
  summary: "Export a mission as a ZIP",
  description:
    "Streams a ZIP of every image's original bytes (`images/{submission_id}/{nn}-{image_id}.jpg`) plus `metadata.json` (mission, submissions, " +
    "per-image EXIF, QA verdict, SHA-256). Content-Length is exact, so downloads can show progress; ZIP64 is used when needed.",
  security: security("submissions:read"),
  middleware: [authenticate({ scope: "submissions:read" })] as const,
  request: { params: MissionIdParam },
  responses: {
    200: { description: "The archive.", headers: rateLimitHeaderDocs, content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } } },
    ...errorResponses(404),
  },
});

async function submissionFor(c: { var: AppEnv["Variables"] }, id: string) {
  const [row] = await c.var.ctx.db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, id), eq(submissions.orgId, callerOrg(c))))
    .limit(1);
  if (!row) throw notFound("submission");
  return row;
}

export function registerSubmissionRoutes(app: OpenAPIHono<AppEnv>, uploads: { maxPhotos: number; maxFileBytes: number }) {
  // POST /missions/:id/submissions – field intake (zoomer credentials)
  app.openAPIRegistry.registerPath(receiveRoute(uploads));
  app.post("/missions/:id/submissions", authenticate({ scope: "submissions:write" }), async (c) => {
    const zoomerId = c.var.caller.zoomerId;
    if (!zoomerId) throw new ApiError(403, "insufficient_scope", "Only zoomer credentials can submit photos.");
    const missionId = c.req.param("id");
    // A plain handler: the validation hook does not see this parameter, so check it here.
    assertStorableInput({ id: missionId }, "path");
    if (missionId.length > MAX_ID_LENGTH) {
      throw new ApiError(422, "validation_failed", "The request is not valid; see errors[].", {
        errors: [{ pointer: "id", in: "path", message: `At most ${MAX_ID_LENGTH} characters.` }],
      });
    }
    const submission = await receiveSubmission({
      ctx: c.var.ctx,
      zoomerId,
      target: { kind: "mission", missionId },
      body: c.req.raw.body,
      contentType: c.req.header("content-type"),
    });
    c.header("Location", `${c.var.ctx.config.publicOrigin}/api/v1/submissions/${submission.id}`);
    return c.json(submission, 202);
  });

  // GET /missions/:id/submissions – JSON list or GeoJSON FeatureCollection
  app.openapi(listRoute, async (c) => {
    const { format: asked, page, per_page: perPage, ...filters } = c.req.valid("query");
    const format = asked ?? ((c.req.header("accept") ?? "").includes(GEOJSON_MEDIA_TYPE) ? "geojson" : "json");
    const list = await listMissionSubmissions(c.var.ctx, { orgId: callerOrg(c), missionId: c.req.valid("param").id, filters, page, perPage, format });
    c.header("Vary", "Accept");
    if (list.format === "json") return c.json(list.body, 200);
    const response = c.json(list.body, 200);
    response.headers.set("content-type", GEOJSON_MEDIA_TYPE);
    return response;
  });

  // GET /missions/:id/submission-points – all located submissions as GeoJSON points (map)
  app.openapi(pointsRoute, async (c) => {
    const { ctx } = c.var;
    const mission = await getMissionRow(ctx, callerOrg(c), c.req.valid("param").id);
    const { status, since, until } = c.req.valid("query");
    const points = await getSubmissionPoints({
      db: ctx.db,
      missionId: mission.id,
      status,
      since,
      until,
      ifNoneMatch: c.req.header("if-none-match"),
      cache: ctx.pointsCache,
    });
    const headers = { ETag: points.etag, "Cache-Control": "private, no-cache", Vary: "Accept-Encoding" };
    if (points.body === null) return c.body(null, 304, headers);
    // Gzipped once per document (get-submission-points.ts): 214 bytes a point shrink about fivefold.
    if (acceptedEncodings(c.req.header("accept-encoding")).has("gzip")) {
      return c.body(await points.gzipped(), 200, { ...headers, "Content-Type": GEOJSON_MEDIA_TYPE, "Content-Encoding": "gzip" });
    }
    return c.body(points.body, 200, { ...headers, "Content-Type": GEOJSON_MEDIA_TYPE });
  });

  // GET /missions/:id/export – ZIP of originals + metadata.json
  app.openapi(exportRoute, async (c) => {
    const mission = await getMissionRow(c.var.ctx, callerOrg(c), c.req.valid("param").id);
    const archive = await exportMission(c.var.ctx, mission);
    return c.body(Readable.toWeb(archive.stream) as ReadableStream, 200, {
      "Content-Type": "application/zip",
      "Content-Length": String(archive.size),
      "Content-Disposition": `attachment; filename="${mission.id}.zip"`,
      "X-Image-Count": String(archive.imageCount),
    });
  });

  // GET /submissions/:id – one submission with images
  app.openapi(getRoute, async (c) => {
    const row = await submissionFor(c, c.req.valid("param").id);
    const imageRows = await c.var.ctx.db.select().from(images).where(eq(images.submissionId, row.id)).orderBy(asc(images.position));
    return c.json({ ...serializeSubmission(row), images: imageRows.map((i) => serializeImage(i, c.var.ctx)) }, 200);
  });

  // GET /submissions/:id/images – its images
  app.openapi(imagesRoute, async (c) => {
    const row = await submissionFor(c, c.req.valid("param").id);
    const imageRows = await c.var.ctx.db.select().from(images).where(eq(images.submissionId, row.id)).orderBy(asc(images.position));
    return c.json({ data: imageRows.map((i) => serializeImage(i, c.var.ctx)) }, 200);
  });
}
