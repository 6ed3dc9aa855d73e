import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { CreateWebhookSchema, DeliverySchema, UpdateWebhookSchema, WebhookSchema, WebhookWithSecretSchema } from "@/lib/schemas/webhook";
import { getDelivery, listDeliveries, redeliver, sendTestEvent } from "@/lib/service/webhooks/deliveries";
import {
  createWebhook,
  deleteWebhook,
  getWebhookRow,
  listWebhooks,
  rotateWebhookSecret,
  serializeWebhook,
  updateWebhook,
} from "@/lib/service/webhooks/endpoints";
import { authenticate, callerOrg } from "../middleware/authenticate";
import { jsonBody } from "../middleware/json-body";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, security, noContent, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Webhooks"];
const scope = "webhooks:manage" as const;
const auth = authenticate({ scope });
const WebhookIdParam = z.object({
  id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "id", in: "path" }, example: "wh_06h0…" }),
});
const DeliveryParams = WebhookIdParam.extend({
  delivery_id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "delivery_id", in: "path" }, example: "dlv_06h0…" }),
});
const jsonBodyOf = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });

const routes = {
  create: createRoute({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    tags,
    summary: "Register a webhook endpoint",
    description: "Answers with the signing `secret` — shown only here and on rotation. The URL must be public (SSRF guard).",
    security: security(scope),
    middleware: [auth, jsonBody] as const,
    request: { body: jsonBodyOf(CreateWebhookSchema) },
    responses: { 201: jsonResponse(WebhookWithSecretSchema, "The endpoint and its secret."), ...errorResponses(400, 413, 415, 422) },
  }),
  list: createRoute({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    tags,
    summary: "List webhook endpoints",
    description: "The organisation's webhook endpoints, newest first, without their secrets (a secret is shown once, when created or rotated).",
    security: security(scope),
    middleware: [auth] as const,
    responses: { 200: jsonResponse(z.object({ data: z.array(WebhookSchema) }).openapi("WebhookList"), "The endpoints."), ...errorResponses() },
  }),
  get: createRoute({
    method: "get",
    path: "/webhooks/{id}",
    operationId: "getWebhook",
    tags,
    summary: "Get a webhook endpoint",
    description: "One webhook endpoint: URL, subscribed events, whether it is enabled (or was disabled after failing for days), never its secret.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: WebhookIdParam },
    responses: { 200: jsonResponse(WebhookSchema, "The endpoint."), ...errorResponses(404) },
  }),
  update: createRoute({
    method: "patch",
    path: "/webhooks/{id}",
    operationId: "updateWebhook",
    tags,
    summary: "Change a webhook endpoint",
    description: "url, events, description, enabled. Enabling a disabled endpoint clears its failure streak.",
    security: security(scope),
    middleware: [auth, jsonBody] as const,
    request: { params: WebhookIdParam, body: jsonBodyOf(UpdateWebhookSchema) },
    responses: { 200: jsonResponse(WebhookSchema, "The changed endpoint."), ...errorResponses(400, 404, 413, 415, 422) },
  }),
  remove: createRoute({
    method: "delete",
    path: "/webhooks/{id}",
    operationId: "deleteWebhook",
    tags,
    summary: "Delete a webhook endpoint",
    description: "Pending deliveries to it are dropped.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: WebhookIdParam },
    responses: { 204: noContent("Deleted."), ...errorResponses(404) },
  }),
  rotate: createRoute({
    method: "post",
    path: "/webhooks/{id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    tags,
    summary: "Rotate the signing secret",
    description:
      "A new secret (`whsec_` + standard base64, Standard Webhooks) signs from now on (X-SVC-Signature, webhook-signature); the old one keeps signing alongside (X-SVC-Signature-Previous, a second webhook-signature entry) until `previous_secret_expires_at`. Rotating a secret issued before the Standard Webhooks rule is how an endpoint moves to it.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: WebhookIdParam },
    responses: { 200: jsonResponse(WebhookWithSecretSchema, "The endpoint and its new secret."), ...errorResponses(404) },
  }),
  test: createRoute({
    method: "post",
    path: "/webhooks/{id}/test",
    operationId: "sendWebhookTest",
    tags,
    summary: "Send a test event",
    description: "Queues a `webhook.test` event to this endpoint now; follow it in the delivery log.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: WebhookIdParam },
    responses: { 202: jsonResponse(DeliverySchema, "The queued delivery."), ...errorResponses(404) },
  }),
  deliveries: createRoute({
    method: "get",
    path: "/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tags,
    summary: "List deliveries with every attempt",
    description: "The endpoint's deliveries, newest first, each with every attempt (status code, latency, response snippet) and its state.",
    security: security(scope),
    middleware: [auth] as const,
    request: {
      params: WebhookIdParam,
      query: z.object({
        status: z.string().max(200).optional().openapi({ description: "pending, delivering, succeeded, failed (comma-separated) or all." }),
        ...PagingQuery,
      }),
    },
    responses: {
      200: jsonResponse(z.object({ data: z.array(DeliverySchema), meta: ListMetaSchema }).openapi("DeliveryList"), "Newest first."),
      ...errorResponses(404, 422),
    },
  }),
  delivery: createRoute({
    method: "get",
    path: "/webhooks/{id}/deliveries/{delivery_id}",
    operationId: "getWebhookDelivery",
    tags,
    summary: "Get one delivery with every attempt",
    description: "One delivery with its payload and every attempt made, for debugging a receiver.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: DeliveryParams },
    responses: { 200: jsonResponse(DeliverySchema, "The delivery."), ...errorResponses(404) },
  }),
  redeliver: createRoute({
    method: "post",
    path: "/webhooks/{id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhookDelivery",
    tags,
    summary: "Redeliver",
    description: "Queues another attempt of a settled delivery — same event id, same body. 409 while it is still being attempted or the endpoint is disabled.",
    security: security(scope),
    middleware: [auth] as const,
    request: { params: DeliveryParams },
    responses: { 202: jsonResponse(DeliverySchema, "The delivery, pending again."), ...errorResponses(404, 409) },
  }),
};

export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /webhooks – register an endpoint
  app.openapi(routes.create, async (c) => c.json(await createWebhook(c.var.ctx, callerOrg(c), c.req.valid("json")), 201));
  // GET /webhooks – the organisation's endpoints
  app.openapi(routes.list, async (c) => c.json({ data: await listWebhooks(c.var.ctx, callerOrg(c)) }, 200));
  // GET /webhooks/:id – one endpoint
  app.openapi(routes.get, async (c) => c.json(serializeWebhook(await getWebhookRow(c.var.ctx, callerOrg(c), c.req.valid("param").id)), 200));
  // PATCH /webhooks/:id – change it
  app.openapi(routes.update, async (c) => c.json(await updateWebhook(c.var.ctx, callerOrg(c), c.req.valid("param").id, c.req.valid("json")), 200));
  // DELETE /webhooks/:id – delete it
  app.openapi(routes.remove, async (c) => {
    await deleteWebhook(c.var.ctx, callerOrg(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  // POST /webhooks/:id/rotate-secret – new secret, old one kept for a grace period
  app.openapi(routes.rotate, async (c) => c.json(await rotateWebhookSecret(c.var.ctx, callerOrg(c), c.req.valid("param").id), 200));
  // POST /webhooks/:id/test – send webhook.test
  app.openapi(routes.test, async (c) => c.json(await sendTestEvent(c.var.ctx, callerOrg(c), c.req.valid("param").id), 202));
  // GET /webhooks/:id/deliveries – the delivery log
  app.openapi(routes.deliveries, async (c) => {
    const query = c.req.valid("query");
    return c.json(
      await listDeliveries(c.var.ctx, callerOrg(c), c.req.valid("param").id, { status: query.status, page: query.page, perPage: query.per_page }),
      200,
    );
  });
  // GET /webhooks/:id/deliveries/:delivery_id – one delivery
  app.openapi(routes.delivery, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    return c.json(await getDelivery(c.var.ctx, callerOrg(c), id, delivery_id), 200);
  });
  // POST /webhooks/:id/deliveries/:delivery_id/redeliver – try again
  app.openapi(routes.redeliver, async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    return c.json(await redeliver(c.var.ctx, callerOrg(c), id, delivery_id), 202);
  });
}
