// The zoomer side of orders: tasks (assignments) near where they stand, taking one, giving it
// back, and submitting its photo.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AngleSchema, LocalisableSchema } from "@/lib/schemas/order";
import { CROWD_LEVELS, TIMES_OF_DAY } from "@/lib/orders/vocabulary";
import { SubmissionSchema } from "@/lib/schemas/submission";
import { getFieldAssignment, listFieldAssignments, releaseAssignment, takeAssignment } from "@/lib/service/assignments/field-assignments";
import { ApiError } from "@/lib/service/errors";
import { receiveSubmission } from "@/lib/service/submissions/receive-multipart";
import { authenticate } from "../middleware/authenticate";
import { NearQuerySchema } from "./field";
import { errorResponses, jsonResponse, rateLimitHeaderDocs, security } from "../openapi-common";
import type { ServiceConfig } from "@/lib/service/context";
import type { AppEnv } from "../types";

const tags = ["Field"];

const CheckSchema = z
  .object({
    status: z.string(),
    passed: z.boolean(),
    score: z.number(),
    message: z.string(),
    instruction: z.string().nullable(),
    code: z.string().optional().openapi({ description: "`message` as a stable code with `params`, for pages in the reader's language." }),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    instruction_codes: z.array(LocalisableSchema).optional(),
  })
  .catchall(z.unknown());

export const FieldAssignmentSchema = z
  .object({
    id: z.string().openapi({ example: "asg_06h0…" }),
    status: z
      .enum(["open", "reserved", "submitted", "held_for_review", "verified", "failed", "given_up", "cancelled"])
      .openapi({ description: "`held_for_review`: your photo arrived and a person is checking it; nothing to do meanwhile." }),
    category: z.string(),
    location: z.object({ id: z.string(), name: z.string(), lat: z.number(), lng: z.number(), time_zone: z.string() }),
    angle: AngleSchema,
    angle_description: z.string().openapi({ description: "What to shoot, in a sentence." }),
    attempt: z.number().int().openapi({ description: "0 for the first photo, then 1–3 for retakes." }),
    instructions: z.array(z.string()).openapi({ description: "For a retake: what to do differently (English)." }),
    instruction_codes: z
      .array(LocalisableSchema)
      .openapi({ description: "The same as stable codes and figures, for a page in the zoomer's language (`text`: an English sentence without a code)." }),
    window: z
      .object({ starts_at: z.string(), ends_at: z.string(), local: z.string() })
      .nullable()
      .openapi({ description: "When to shoot, in UTC and in the place's local time." }),
    time_of_day: z
      .object({
        requirement: z.enum(TIMES_OF_DAY),
        local_date: z.string().openapi({
          description: "The local day the times are for: the task's window's day, or for work without a window today (tomorrow once today's has passed).",
        }),
        starts_at: z.string().nullable(),
        ends_at: z.string().nullable(),
        local: z.string().nullable().openapi({ description: '"07:22–16:40" in the place\'s local time; null when the sun allows no time that day.' }),
      })
      .nullable()
      .openapi({ description: "The order's time of day (daylight, midday, evening) as times at this place: photos outside it are rejected." }),
    requirements: z
      .object({
        time_window: z.string().nullable().openapi({
          description: 'A recurring order\'s local hours, "HH:MM-HH:MM" (an end before the start runs past midnight): photos taken outside them are rejected.',
        }),
        minimum_crowd: z.enum(CROWD_LEVELS).nullable().openapi({ description: "How busy the place must look." }),
        brand: z.string().nullable().openapi({ description: "A brand name that must be visible in the photo." }),
      })
      .openapi({ description: "What else the order asks of the photo; null where it asks nothing." }),
    deadline_at: z.string(),
    deadline_local: z.string(),
    reserved_until: z.string().nullable().openapi({ description: "Your reservation, when you hold it." }),
    distance_m: z.number().nullable().openapi({ description: "From the point you asked about." }),
    bearing_deg: z.number().nullable().openapi({ description: "Direction to the target from that point (0 = north)." }),
    submission_id: z.string().nullable(),
    verification: z
      .object({
        status: z.enum(["approved", "rejected", "held"]),
        ai_checks: z.record(z.string(), CheckSchema),
        instructions: z.array(z.string()),
        instruction_codes: z.array(LocalisableSchema).optional(),
      })
      .nullable()
      .openapi({ description: "After your photo is verified: each check, and what to do differently for a retake. null while it is held for review." }),
    escalated: z.boolean().openapi({
      description:
        "Nobody took this task in the time it is usually taken: it is listed first, and offered up to 5 times farther than the radius asked (200 km at most), so a zoomer farther away may take it.",
    }),
  })
  .openapi("FieldAssignment");

const IdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" } }),
});

const listRoute = createRoute({
  method: "get",
  path: "/field/assignments",
  operationId: "listNearbyAssignments",
  tags,
  summary: "Order tasks near a point (zoomers)",
  description:
    "Open tasks within `radius_km`, and the ones you hold; escalated tasks (`escalated: true`: untaken past the time such tasks are usually taken) also from up to 5 × `radius_km` (200 km at most). Escalated tasks first, then nearest first. Each is one angle of one ordered location.",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: { query: NearQuerySchema },
  responses: { 200: jsonResponse(z.object({ data: z.array(FieldAssignmentSchema) }).openapi("FieldAssignmentList"), "Tasks."), ...errorResponses(422) },
});

const getRoute = createRoute({
  method: "get",
  path: "/field/assignments/{id}",
  operationId: "getAssignment",
  tags,
  summary: "One task (zoomers)",
  description: "An open task, or one you hold or did (with its verification).",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(FieldAssignmentSchema, "The task."), ...errorResponses(404) },
});

const takeRoute = createRoute({
  method: "post",
  path: "/field/assignments/{id}/take",
  operationId: "takeAssignment",
  tags,
  summary: "Take a task (zoomers)",
  description:
    "Reserves the task for you for 30 minutes; then it is back in the pool. Taking a task you hold answers it unchanged: the reservation is not extended. You can hold 6 at most.",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(FieldAssignmentSchema, "The task, reserved for you."), ...errorResponses(404, 409) },
});

const releaseRoute = createRoute({
  method: "post",
  path: "/field/assignments/{id}/release",
  operationId: "releaseAssignment",
  tags,
  summary: "Give a task back (zoomers)",
  description: "Gives a taken task back to the pool before its reservation runs out, so another zoomer near it can take it.",
  security: security("submissions:write"),
  middleware: [authenticate({ scope: "submissions:write" })] as const,
  request: { params: IdParam },
  responses: { 204: { description: "Given back.", headers: rateLimitHeaderDocs }, ...errorResponses(404, 409) },
});

const photoRoute = (limits: ServiceConfig["uploads"]) => ({
  method: "post" as const,
  path: "/field/assignments/{id}/photo",
  operationId: "submitAssignmentPhoto",
  tags,
  summary: "Submit the task's photo (zoomers)",
  description:
    "multipart/form-data with one `photos` part (JPEG or HEIC/HEIF, decided by its bytes; the original is kept as sent). The photo goes through QA and then verification (place, direction, time of day, quality); " +
    "GET the task to see the result. A failed photo opens a retake with instructions. " +
    "Exactly once: the same photo sent again for this task (here or as a resumable upload with `target` = this task) answers 202 with the one submission it made, " +
    "even after the task was submitted.",
  security: security("submissions:write"),
  request: {
    params: IdParam,
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: z.object({
            photos: z.string().openapi({ format: "binary", maxLength: limits.maxFileBytes, description: "One photo (JPEG or HEIC/HEIF)." }),
            note: z.string().max(2000).optional(),
          }),
        },
      },
    },
  },
  responses: {
    202: jsonResponse(
      SubmissionSchema,
      "The submission, received (QA and verification follow); for a photo sent before, the one submission it made, as it stands.",
    ),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

function zoomerOf(c: { var: AppEnv["Variables"] }): string {
  const zoomerId = c.var.caller.zoomerId;
  if (!zoomerId) throw new ApiError(403, "insufficient_scope", "Only zoomer credentials can take tasks.");
  return zoomerId;
}

export function registerFieldAssignmentRoutes(app: OpenAPIHono<AppEnv>, limits: ServiceConfig["uploads"]) {
  // GET /field/assignments – tasks near a point
  app.openapi(listRoute, async (c) => {
    const { lat, lng, radius_km, limit } = c.req.valid("query");
    return c.json({ data: await listFieldAssignments(c.var.ctx, zoomerOf(c), { lat, lng, radiusKm: radius_km, limit }) }, 200);
  });

  // GET /field/assignments/:id – one task
  app.openapi(getRoute, async (c) => c.json(await getFieldAssignment(c.var.ctx, zoomerOf(c), c.req.valid("param").id), 200));

  // POST /field/assignments/:id/take – reserve it
  app.openapi(takeRoute, async (c) => c.json(await takeAssignment(c.var.ctx, zoomerOf(c), c.req.valid("param").id), 200));

  // POST /field/assignments/:id/release – give it back
  app.openapi(releaseRoute, async (c) => {
    await releaseAssignment(c.var.ctx, zoomerOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  // POST /field/assignments/:id/photo – the photo, streamed like any submission
  app.openAPIRegistry.registerPath(photoRoute(limits));
  app.post("/field/assignments/:id/photo", authenticate({ scope: "submissions:write" }), async (c) => {
    const submission = await receiveSubmission({
      ctx: c.var.ctx,
      zoomerId: zoomerOf(c),
      target: { kind: "assignment", assignmentId: c.req.param("id") },
      body: c.req.raw.body,
      contentType: c.req.header("content-type"),
    });
    return c.json(submission, 202);
  });
}
