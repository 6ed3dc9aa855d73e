// Deliveries to an order's webhook URL: the log and a redelivery, the organisation's order-delivery
// secret that signs them, and a test event to a URL.
import { createRoute, z } from "@hono/zod-openapi";
import { DeliverySecretRevealSchema, DeliverySecretSchema, DeliveryTestResultSchema, DeliveryTestSchema } from "@/lib/schemas/order";
import { DeliverySchema } from "@/lib/schemas/webhook";
import { createDeliverySecret, getDeliverySecretInfo, rotateDeliverySecret } from "@/lib/service/orders/delivery-secret";
import { listOrderDeliveries, redeliverOrderDelivery } from "@/lib/service/orders/order-deliveries";
import { testDeliveryUrl } from "@/lib/service/orders/test-delivery-url";
import { callerOrg } from "../../middleware/authenticate";
import { idempotency } from "../../middleware/idempotency";
import { jsonBody } from "../../middleware/json-body";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, orderSecurity } from "../../openapi-common";
import { IdempotencyHeader, OrderIdParam, json, orderOf, pageOf, read, tags, withReplay, write, type MountOperation } from "./common";

const DeliveryQuery = z.object({
  ...PagingQuery,
  status: z.string().max(100).optional().openapi({ description: "pending, delivering, succeeded, failed (comma-separated)." }),
});

const deliveriesRoute = createRoute({
  method: "get",
  path: "/orders/{id}/deliveries",
  operationId: "listOrderDeliveries",
  tags,
  summary: "Deliveries to the order's webhook URL",
  description: "Every event sent to `delivery.webhook_url`, with every attempt. Empty when the order has no delivery URL.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam, query: DeliveryQuery },
  responses: {
    200: jsonResponse(z.object({ data: z.array(DeliverySchema), meta: ListMetaSchema }).openapi("OrderDeliveryList"), "Newest first."),
    ...errorResponses(404, 422),
  },
});

const redeliverRoute = createRoute({
  method: "post",
  path: "/orders/{id}/deliveries/{delivery_id}/redeliver",
  operationId: "redeliverOrderDelivery",
  tags,
  summary: "Send a delivery again",
  description: "Queues one more attempt of a succeeded or failed delivery, with the same event id and body.",
  security: orderSecurity("orders:write"),
  middleware: [write, idempotency] as const,
  request: {
    params: OrderIdParam.extend({
      delivery_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "delivery_id", in: "path" } }),
    }),
    headers: IdempotencyHeader,
  },
  responses: { 200: withReplay(DeliverySchema, "The delivery, queued."), ...errorResponses(404, 409) },
});

const secretInfoRoute = createRoute({
  method: "get",
  path: "/delivery-secret",
  operationId: "getDeliverySecret",
  tags,
  summary: "The order-delivery secret (without the secret)",
  description:
    "Whether the organisation has an order-delivery secret (it signs photos.delivered and the other order events) and when it was created; the secret itself is shown only when created or rotated.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  responses: { 200: jsonResponse(DeliverySecretSchema, "Whether a secret exists, and since when."), ...errorResponses() },
});

const secretCreateRoute = createRoute({
  method: "post",
  path: "/delivery-secret",
  operationId: "createDeliverySecret",
  tags,
  summary: "Create the order-delivery secret",
  description:
    "Creates the secret that signs requests to orders' `delivery.webhook_url` (X-SVC-Signature, and webhook-signature as Standard Webhooks has it: `whsec_` + standard base64, verifiable with their libraries in their default mode). It is shown only in this answer; 409 when one exists (rotate it).",
  security: orderSecurity("orders:write"),
  middleware: [write, idempotency] as const,
  request: { headers: IdempotencyHeader },
  responses: { 201: withReplay(DeliverySecretRevealSchema, "The secret, shown once."), ...errorResponses(409) },
});

const secretRotateRoute = createRoute({
  method: "post",
  path: "/delivery-secret/rotate",
  operationId: "rotateDeliverySecret",
  tags,
  summary: "Rotate the order-delivery secret",
  description:
    "A new secret (`whsec_` + standard base64, Standard Webhooks), shown only here. The old one keeps signing (X-SVC-Signature-Previous, a second webhook-signature entry) for 24 hours. Rotating an `odsec_…` secret is how an organisation moves to the Standard Webhooks form.",
  security: orderSecurity("orders:write"),
  middleware: [write, idempotency] as const,
  request: { headers: IdempotencyHeader },
  responses: { 200: withReplay(DeliverySecretRevealSchema, "The new secret, shown once."), ...errorResponses() },
});

const deliveryTestRoute = createRoute({
  method: "post",
  path: "/delivery-test",
  operationId: "testDeliveryUrl",
  tags,
  summary: "Send a test event to a delivery URL",
  description:
    "Sends one `order.delivery.test` event to `url` now, signed with the organisation's order-delivery secret as deliveries are (X-SVC-Signature and the Standard Webhooks headers), " +
    "with a 5-second timeout and no redirects, and answers what the receiver said. The URL is checked as `delivery.webhook_url` is (422 for private or reserved targets); 409 without a delivery secret. " +
    "A receiver that answers non-2xx, or not at all, is still a 200 here: see `ok`, `status_code` and `error`.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody] as const,
  request: { body: json(DeliveryTestSchema) },
  responses: { 200: jsonResponse(DeliveryTestResultSchema, "What the receiver answered."), ...errorResponses(400, 409, 413, 415, 422) },
});

/** The delivery operations, by operationId. */
export const deliveryOperations = {
  // GET /orders/:id/deliveries – the delivery log of the order's webhook URL
  listOrderDeliveries: (app) =>
    app.openapi(deliveriesRoute, async (c) => {
      const query = c.req.valid("query");
      return c.json(await listOrderDeliveries(c.var.ctx, { ...orderOf(c), status: query.status, ...pageOf(query) }), 200);
    }),

  // POST /orders/:id/deliveries/:delivery_id/redeliver – one more attempt
  redeliverOrderDelivery: (app) =>
    app.openapi(redeliverRoute, async (c) =>
      c.json(await redeliverOrderDelivery(c.var.ctx, { ...orderOf(c), deliveryId: c.req.valid("param").delivery_id }), 200),
    ),

  // POST /delivery-test – one signed test event to a URL, answered with the receiver's status
  testDeliveryUrl: (app) =>
    app.openapi(deliveryTestRoute, async (c) => c.json(await testDeliveryUrl(c.var.ctx, { orgId: callerOrg(c), url: c.req.valid("json").url }), 200)),

  // GET /delivery-secret – whether the order-delivery secret exists
  getDeliverySecret: (app) => app.openapi(secretInfoRoute, async (c) => c.json(await getDeliverySecretInfo(c.var.ctx, { orgId: callerOrg(c) }), 200)),

  // POST /delivery-secret – create it (shown once)
  createDeliverySecret: (app) => app.openapi(secretCreateRoute, async (c) => c.json(await createDeliverySecret(c.var.ctx, { orgId: callerOrg(c) }), 201)),

  // POST /delivery-secret/rotate – a new one (shown once), the old one in grace
  rotateDeliverySecret: (app) => app.openapi(secretRotateRoute, async (c) => c.json(await rotateDeliverySecret(c.var.ctx, { orgId: callerOrg(c) }), 200)),
} satisfies Record<string, MountOperation>;
