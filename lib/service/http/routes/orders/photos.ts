// What an order delivered: its photos (one by one and as a ZIP), a photo's signed verification
// record, and the partner's say on a photo (a retake, or the decision on one held for review).
import { Readable } from "node:stream";
import { createRoute, z } from "@hono/zod-openapi";
import { DeliveredPhotoSchema } from "@/lib/schemas/order";
import { exportOrderPhotos } from "@/lib/service/export/export-order-photos";
import { listOrderPhotos } from "@/lib/service/orders/order-views";
import { getPhotoEvidence } from "@/lib/service/orders/photo-evidence";
import { requestRetake } from "@/lib/service/orders/request-retake";
import { reviewHeldPhoto } from "@/lib/service/orders/review-held-photo";
import { WELL_KNOWN_JWKS_PATH } from "../discovery";
import { idempotency } from "../../middleware/idempotency";
import { jsonBody } from "../../middleware/json-body";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, orderSecurity, rateLimitHeaderDocs } from "../../openapi-common";
import { IdempotencyHeader, OrderIdParam, json, orderOf, pageOf, read, tags, withReplay, write, type MountOperation, type RouteContext } from "./common";

const photosRoute = createRoute({
  method: "get",
  path: "/orders/{id}/photos",
  operationId: "listOrderPhotos",
  tags,
  summary: "The order's delivered photos",
  description:
    "Delivered (verified) photos in the spec's Delivered photo record, oldest first — the same records `photos.delivered` carried. URLs are signed and valid for 7 days.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam, query: z.object(PagingQuery) },
  responses: {
    200: jsonResponse(z.object({ data: z.array(DeliveredPhotoSchema), meta: ListMetaSchema }).openapi("DeliveredPhotoList"), "A page of photos."),
    ...errorResponses(404, 422),
  },
});

const photosZipRoute = createRoute({
  method: "get",
  path: "/orders/{id}/photos.zip",
  operationId: "downloadOrderPhotos",
  tags,
  summary: "Download the order's delivered photos as a ZIP",
  description:
    "Streams a ZIP of the delivered photos' original bytes (EXIF preserved) as `photos/{location_id}/cycle-{nnn}-{angle}-{photo_id}.jpg` (`nnn`: the cycle counted from 001 as the dashboard does, `cycle_index` + 1), plus `metadata.json` " +
    "(the order, and per photo its location, cycle, angle, capture facts, SHA-256 and verification), and the evidence: `evidence/{photo_id}.jws` (each photo's signed record, " +
    "the same JWS as in its photo record) beside `evidence/jwks.json` (the service's published keys when the archive was made, retired keys included), so the archive verifies offline. " +
    "`location_id` narrows it to one location. " +
    "Content-Length is exact, so downloads can show progress; ZIP64 is used when needed.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: {
    params: OrderIdParam,
    query: z.object({
      location_id: z
        .string()
        .max(68)
        .optional()
        .openapi({ description: "Only this location's photos (one of the order's location ids).", example: "loc_duomo" }),
    }),
  },
  responses: {
    200: {
      description: "The archive.",
      headers: rateLimitHeaderDocs,
      content: {
        "application/zip": {
          schema: z.string().openapi({ format: "binary", example: "(binary ZIP: photos/loc_duomo/cycle-001-front-img_06h0….jpg, metadata.json)" }),
        },
      },
    },
    ...errorResponses(404, 422),
  },
});

const retakeRoute = createRoute({
  method: "post",
  path: "/orders/{id}/photos/{photo_id}/retake",
  operationId: "retakeOrderPhoto",
  tags,
  summary: "Send a delivered photo back for a retake",
  description:
    "For what the automated checks missed: a new task opens for the same location and angle with your reason as its instruction; the location's new photo is delivered " +
    "as `photos.delivered` when verified (and the order, if fulfilled, is in progress until then). Not charged.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: {
    params: OrderIdParam.extend({
      photo_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "photo_id", in: "path" } }),
    }),
    headers: IdempotencyHeader,
    body: json(z.strictObject({ reason: z.string().trim().min(3, "Say what is wrong, for the zoomer.").max(500) }).openapi("RequestRetake")),
  },
  responses: {
    202: withReplay(z.object({ assignment_id: z.string() }).openapi("RetakeRequested"), "The retake task."),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

const reviewRoute = createRoute({
  method: "post",
  path: "/orders/{id}/photos/{photo_id}/review",
  operationId: "reviewHeldOrderPhoto",
  tags,
  summary: "Approve or reject a photo held for review",
  description:
    "A photo whose `authenticity` check failed (its assignment is `held_for_review`; the check's `extra.signals` say why) is never delivered on its own. " +
    "`approve`: it is verified and delivered with its location's set. `reject`: it fails, and a retake opens with your `reason` as the zoomer's instruction " +
    "(after 3 retakes the location is given up and refunded). 409 `not_held_for_review` when the photo is not waiting for a decision.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: {
    params: OrderIdParam.extend({
      photo_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "photo_id", in: "path" } }),
    }),
    headers: IdempotencyHeader,
    body: json(
      z
        .strictObject({
          decision: z.enum(["approve", "reject"]),
          reason: z
            .string()
            .trim()
            .min(3, "Say what is wrong, for the zoomer.")
            .max(500)
            .optional()
            .openapi({ description: "Required to reject: the retake's instruction." }),
        })
        .openapi("ReviewHeldPhoto"),
    ),
  },
  responses: {
    200: withReplay(
      z
        .object({ status: z.enum(["verified", "failed", "given_up"]).openapi({ description: "The assignment's state after the decision." }) })
        .openapi("HeldPhotoReviewed"),
      "Decided.",
    ),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

const evidenceRoute = createRoute({
  method: "get",
  path: "/orders/{id}/photos/{photo_id}/evidence",
  operationId: "getOrderPhotoEvidence",
  tags,
  summary: "A delivered photo's signed verification record",
  description:
    "The record `photos.delivered` carried as `evidence`: a compact JWS (`alg` EdDSA, `typ` photo-evidence+jwt, `kid` from the JWKS at `/.well-known/jwks.json`) over the photo id, " +
    "the SHA-256 of the original bytes, every check with its value and threshold (and the authenticity signals), the positions (target, EXIF, phone) and the times. " +
    "Check it with the SDKs' `verifyEvidence` / `verify_evidence`, with the photo's bytes to bind them. `record` is the same claims, unsigned, for reading. 404 for photos not delivered. " +
    "The JWS is the one made at delivery, byte for byte, every time: a key rotation does not re-sign it (the retired key stays in the JWKS).",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: {
    params: OrderIdParam.extend({
      photo_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "photo_id", in: "path" } }),
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          photo_id: z.string(),
          evidence: z.string().openapi({ description: "The compact JWS." }),
          record: z.record(z.string(), z.unknown()).openapi({
            description:
              "Its claims, decoded: iss, iat, photo_id, order_id, location_id, angle, sha256, byte_size, verification, checks, review, positions, times.",
          }),
          jwks_uri: z.string(),
        })
        .openapi("PhotoEvidence"),
      "The signed record.",
    ),
    ...errorResponses(404),
  },
});

const reviewerOf = (c: RouteContext) => {
  const credential = c.var.caller.credential;
  return credential.kind === "api_key" ? credential.keyId : credential.clientId;
};

/** The photo operations, by operationId. */
export const photoOperations = {
  // GET /orders/:id/photos – delivered photos
  listOrderPhotos: (app) =>
    app.openapi(photosRoute, async (c) => c.json(await listOrderPhotos(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200)),

  // GET /orders/:id/photos.zip – delivered photos as a ZIP (the order's, or one location's)
  downloadOrderPhotos: (app) =>
    app.openapi(photosZipRoute, async (c) => {
      const archive = await exportOrderPhotos(c.var.ctx, { ...orderOf(c), locationId: c.req.valid("query").location_id ?? null });
      return c.body(Readable.toWeb(archive.stream) as ReadableStream, 200, {
        "Content-Type": "application/zip",
        "Content-Length": String(archive.size),
        "Content-Disposition": `attachment; filename="${archive.filename}"`,
        "X-Photo-Count": String(archive.photoCount),
      });
    }),

  // POST /orders/:id/photos/:photo_id/retake – the partner sends a photo back
  retakeOrderPhoto: (app) =>
    app.openapi(retakeRoute, async (c) => {
      const assignmentId = await requestRetake(c.var.ctx, { ...orderOf(c), photoId: c.req.valid("param").photo_id, reason: c.req.valid("json").reason });
      return c.json({ assignment_id: assignmentId }, 202);
    }),

  // GET /orders/:id/photos/:photo_id/evidence – a delivered photo's signed verification record
  getOrderPhotoEvidence: (app) =>
    app.openapi(evidenceRoute, async (c) => {
      const evidence = await getPhotoEvidence(c.var.ctx, { ...orderOf(c), photoId: c.req.valid("param").photo_id });
      return c.json({ ...evidence, jwks_uri: `${c.var.ctx.config.publicOrigin}${WELL_KNOWN_JWKS_PATH}` }, 200);
    }),

  // POST /orders/:id/photos/:photo_id/review – approve or reject a photo held for review
  reviewHeldOrderPhoto: (app) =>
    app.openapi(reviewRoute, async (c) => {
      const body = c.req.valid("json");
      const decided = await reviewHeldPhoto(c.var.ctx, {
        ...orderOf(c),
        photoId: c.req.valid("param").photo_id,
        decision: body.decision,
        reason: body.reason,
        reviewer: reviewerOf(c),
      });
      return c.json(decided, 200);
    }),
} satisfies Record<string, MountOperation>;
