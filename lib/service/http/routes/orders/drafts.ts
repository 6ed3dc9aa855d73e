// The dashboard wizard's order drafts: list, start, read, save (If-Match: version), discard, and
// place — create, link and pay the draft's order in one request.
import { createRoute, z } from "@hono/zod-openapi";
import { DraftInputSchema, DraftSchema, PlaceDraftSchema, PlacedOrderSchema } from "@/lib/schemas/order";
import { ApiError } from "@/lib/service/errors";
import { createDraft, deleteDraft, getDraft, listDrafts, saveDraft } from "@/lib/service/orders/order-drafts";
import { placeOrder } from "@/lib/service/orders/place-order";
import { callerOrg, callerWithPlan } from "../../middleware/authenticate";
import { idempotency } from "../../middleware/idempotency";
import { jsonBody } from "../../middleware/json-body";
import { errorResponses, jsonResponse, orderSecurity, rateLimitHeaderDocs } from "../../openapi-common";
import { IdempotencyHeader, json, read, tags, withReplay, write, type MountOperation, type RouteContext } from "./common";

const DraftIdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" } }),
});
const IfMatchHeader = z.object({
  "if-match": z.string().max(20).optional().openapi({ description: 'The version this save replaces, e.g. "3"; 412 when the draft has moved on.' }),
});

const draftRoutes = {
  list: createRoute({
    method: "get",
    path: "/drafts",
    operationId: "listOrderDrafts",
    tags,
    summary: "Order drafts",
    description: "The organisation's drafts, most recently saved first (for the dashboard's order wizard).",
    security: orderSecurity("orders:read"),
    middleware: [read] as const,
    responses: { 200: jsonResponse(z.object({ data: z.array(DraftSchema) }).openapi("OrderDraftList"), "Drafts."), ...errorResponses() },
  }),
  create: createRoute({
    method: "post",
    path: "/drafts",
    operationId: "createOrderDraft",
    tags,
    summary: "Start an order draft",
    description: "Starts a server-side draft of an order (the dashboard's wizard saves each step here); nothing is priced or charged.",
    security: orderSecurity("orders:write"),
    middleware: [write, jsonBody, idempotency] as const,
    request: { headers: IdempotencyHeader, body: json(DraftInputSchema) },
    responses: { 201: withReplay(DraftSchema, "The draft."), ...errorResponses(400, 413, 415, 422) },
  }),
  get: createRoute({
    method: "get",
    path: "/drafts/{id}",
    operationId: "getOrderDraft",
    tags,
    summary: "An order draft",
    description: "One saved order draft with the steps filled in so far.",
    security: orderSecurity("orders:read"),
    middleware: [read] as const,
    request: { params: DraftIdParam },
    responses: { 200: jsonResponse(DraftSchema, "The draft."), ...errorResponses(404) },
  }),
  save: createRoute({
    method: "put",
    path: "/drafts/{id}",
    operationId: "saveOrderDraft",
    tags,
    summary: "Save an order draft",
    description: "Replaces the draft's body. With If-Match, a save over a version another tab has already replaced answers 412.",
    security: orderSecurity("orders:write"),
    middleware: [write, jsonBody] as const,
    request: { params: DraftIdParam, headers: IfMatchHeader, body: json(DraftInputSchema) },
    responses: { 200: jsonResponse(DraftSchema, "The saved draft."), ...errorResponses(400, 404, 412, 413, 415, 422) },
  }),
  remove: createRoute({
    method: "delete",
    path: "/drafts/{id}",
    operationId: "deleteOrderDraft",
    tags,
    summary: "Delete an order draft",
    description: "Deletes an order draft; orders created from it are not affected.",
    security: orderSecurity("orders:write"),
    middleware: [write] as const,
    request: { params: DraftIdParam },
    responses: { 204: { description: "Deleted.", headers: rateLimitHeaderDocs }, ...errorResponses(404) },
  }),
};

const placeDraftRoute = createRoute({
  method: "post",
  path: "/drafts/{id}/place",
  operationId: "placeOrderDraft",
  tags,
  summary: "Place and pay the order a draft stands for",
  description:
    "The wizard's last step in one request: creates the order from the draft (422 pointing at the draft's member when it is not a valid order), links it to the draft, and confirms and pays it with the card on file. " +
    "A draft placed before answers its order (`created: false`), paying it only if it is still unpaid, so a repeated request never makes a second order or a second charge. " +
    "An order that could not be paid is answered 200 with `payment.status = not_paid` and the reason.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: { params: DraftIdParam, headers: IdempotencyHeader, body: json(PlaceDraftSchema) },
  responses: { 200: withReplay(PlacedOrderSchema, "The order and whether it was paid."), ...errorResponses(400, 404, 409, 412, 413, 415, 422) },
});

/** The draft operations, by operationId. */
export const draftOperations = {
  // GET /drafts – the wizard's drafts
  listOrderDrafts: (app) => app.openapi(draftRoutes.list, async (c) => c.json({ data: await listDrafts(c.var.ctx, { orgId: callerOrg(c) }) }, 200)),

  // POST /drafts – start one
  createOrderDraft: (app) =>
    app.openapi(draftRoutes.create, async (c) => c.json(await createDraft(c.var.ctx, { orgId: callerOrg(c), ...c.req.valid("json") }), 201)),

  // GET /drafts/:id – one draft
  getOrderDraft: (app) => app.openapi(draftRoutes.get, async (c) => c.json(await getDraft(c.var.ctx, draftOf(c)), 200)),

  // PUT /drafts/:id – save (If-Match: version)
  saveOrderDraft: (app) =>
    app.openapi(draftRoutes.save, async (c) => {
      const { body, step, order_id } = c.req.valid("json");
      const expectedVersion = versionOf(c.req.valid("header")["if-match"]);
      return c.json(await saveDraft(c.var.ctx, { ...draftOf(c), body, step, orderId: order_id, expectedVersion }), 200);
    }),

  // POST /drafts/:id/place – create, link and pay the draft's order in one request
  placeOrderDraft: (app) =>
    app.openapi(placeDraftRoute, async (c) => {
      const { version, payment_method_id } = c.req.valid("json");
      const placed = await placeOrder(c.var.ctx, { caller: callerWithPlan(c), draftId: c.req.valid("param").id, version, paymentMethodId: payment_method_id });
      return c.json(placed, 200);
    }),

  // DELETE /drafts/:id – discard
  deleteOrderDraft: (app) =>
    app.openapi(draftRoutes.remove, async (c) => {
      await deleteDraft(c.var.ctx, draftOf(c));
      return c.body(null, 204);
    }),
} satisfies Record<string, MountOperation>;

/** The caller's organisation and the draft named in the path. */
function draftOf(c: RouteContext): { orgId: string; draftId: string } {
  return { orgId: callerOrg(c), draftId: c.req.param("id") };
}

/** If-Match: "3" (or W/"3") → 3; absent → undefined. */
function versionOf(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined) return undefined;
  const version = Number(ifMatch.replaceAll('"', "").replace(/^W\//, ""));
  if (!Number.isInteger(version))
    throw new ApiError(422, "validation_failed", "If-Match must be a draft version.", {
      errors: [{ pointer: "if-match", in: "header", message: 'Use the version, e.g. "3".' }],
    });
  return version;
}
