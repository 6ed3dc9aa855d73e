// The order interface (/api/orders/v1): quote, create, read, confirm and pay, cancel, pause and
// resume, and what an order produced (missions, delivered photos, schedule, delivery log).
import { Readable } from "node:stream";
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ORDER_STATUSES } from "@/lib/orders/vocabulary";
import { MissionSchema } from "@/lib/schemas/mission";
import {
  CancelLocationSchema,
  CancelOrderSchema,
  ConfirmOrderSchema,
  CreateOrderSchema,
  DeliveredPhotoSchema,
  DeliverySecretRevealSchema,
  DeliverySecretSchema,
  DeliveryTestResultSchema,
  DeliveryTestSchema,
  DraftInputSchema,
  DraftSchema,
  FeasibilitySchema,
  OrderAssignmentSchema,
  OrderListQuerySchema,
  OnTimeReportQuerySchema,
  OnTimeReportSchema,
  OrderSchema,
  PlaceDraftSchema,
  PlacedOrderSchema,
  QuotePreviewSchema,
  ScheduleSchema,
} from "@/lib/schemas/order";
import { DeliverySchema } from "@/lib/schemas/webhook";
import { ORDERS_BASE_PATH } from "@/lib/service/context";
import { ApiError, validationFailed } from "@/lib/service/errors";
import { exportOrderPhotos } from "@/lib/service/export/export-order-photos";
import { assessFeasibility } from "@/lib/service/orders/assess-feasibility";
import { cancelLateLocation } from "@/lib/service/orders/cancel-late-location";
import { cancelOrder, setOrderPaused } from "@/lib/service/orders/change-order";
import { reportOnTime } from "@/lib/service/orders/report-on-time";
import { authenticatePayment, confirmOrder } from "@/lib/service/orders/confirm-order";
import { createOrder } from "@/lib/service/orders/create-order";
import { createDeliverySecret, getDeliverySecretInfo, rotateDeliverySecret } from "@/lib/service/orders/delivery-secret";
import { listOrderDeliveries, redeliverOrderDelivery } from "@/lib/service/orders/order-deliveries";
import { getOrder, listOrderAssignments, listOrderMissions, listOrderPhotos, listOrders, orderSchedule } from "@/lib/service/orders/order-views";
import { createDraft, deleteDraft, getDraft, listDrafts, saveDraft } from "@/lib/service/orders/order-drafts";
import { quoteOrderPreview } from "@/lib/service/orders/quote-order";
import { placeOrder } from "@/lib/service/orders/place-order";
import { PriceListSchema, getPriceList } from "@/lib/service/orders/price-list";
import { reviewHeldPhoto } from "@/lib/service/orders/review-held-photo";
import { getPhotoEvidence } from "@/lib/service/orders/photo-evidence";
import { WELL_KNOWN_JWKS_PATH } from "./discovery";
import { requestRetake } from "@/lib/service/orders/request-retake";
import { testDeliveryUrl } from "@/lib/service/orders/test-delivery-url";
import { parseStatusFilter } from "@/lib/service/query-filters";
import { ORDER_CREDENTIALS, authenticate, callerOrg, callerWithPlan } from "../middleware/authenticate";
import { parseJsonBody } from "../json-depth";
import { assertStorableInput } from "../storable-input";
import { idempotency, storeJsonWithWrite } from "../middleware/idempotency";
import { jsonBody, optionalJsonBody } from "../middleware/json-body";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, orderSecurity, rateLimitHeaderDocs } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Orders"];
const read = authenticate({ scope: "orders:read", accept: ORDER_CREDENTIALS, rateLimit: "plan" });
const write = authenticate({ scope: "orders:write", accept: ORDER_CREDENTIALS, rateLimit: "plan" });

const OrderIdParam = z.object({
  id: z.string().max(100).openapi({ param: { name: "id", in: "path" }, example: "ord_06h0m4b7yq4r6t9v0wxyzab3k" }),
});

const IdempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .max(255)
    .optional()
    .openapi({
      description:
        "Makes the POST safe to retry: the same key with the same request answers the first response again (with `Idempotent-Replayed: true`) for 24 hours; the same key with another request is 422; while the first is running, 409.",
      example: "5f2b1a9e-8c4d-4f2e-9a61-3f1f3d0c7a10",
    }),
});

const replayedHeader = {
  "Idempotent-Replayed": { description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key.", schema: { type: "string" as const } },
};

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const withReplay = <T extends z.ZodType>(schema: T, description: string) => {
  const response = jsonResponse(schema, description);
  return { ...response, headers: { ...response.headers, ...replayedHeader } };
};

const STATE_TABLE = `
| From | Action | To |
|---|---|---|
| — | POST /orders | pending_confirmation |
| pending_confirmation, payment_failed | confirm, card charged | confirmed → in_progress (one-off: missions dispatched) or active (recurring) |
| pending_confirmation, payment_failed | confirm, card declined | payment_failed (confirm again) |
| pending_confirmation, payment_failed | confirm, card needs authentication | payment_action_required |
| payment_action_required | authentication completed / failed | as a charged / declined confirm |
| pending_confirmation, payment_action_required, payment_failed | 7 days pass | expired |
| pending_confirmation, payment_action_required, payment_failed, confirmed, in_progress | cancel | cancelled (undelivered work refunded) |
| active | pause | paused (cycles due meanwhile are skipped, with order.cycle.skipped) |
| paused | resume | active |
| active, paused | cancel, or the last cycle is dispatched | ended (paid cycles that never ran refunded) |
| ended, holding money for a cycle that never ran | cancel | ended (that money refunded) |
| in_progress | every location delivered / some given up | fulfilled / partially_fulfilled |
Any other change answers 409 with the current state.`;


const QUOTE_PREVIEW_CYCLES = 4;

const quoteRoute = createRoute({
  method: "post",
  path: "/orders/quote",
  operationId: "quoteOrder",
  tags,
  summary: "Price an order",
  description:
    "Prices a create-order body without creating anything: line items per location, the recurring discount, the plan's quota left this month and the total; " +
    "when it would be delivered if confirmed now (`delivery_estimate`, the order's estimate as POST /orders/feasibility gives it, or null with `delivery_estimate_reasons`); " +
    "for a recurring order also the next cycles as they would fall if it were confirmed now. " +
    "A POST like the other writes, it needs `orders:write` (a read-only key is 403 `insufficient_scope`), and checks `delivery.webhook_url` as create does (422 `unsafe_webhook_url`).",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: { headers: IdempotencyHeader, body: json(CreateOrderSchema) },
  responses: { 200: withReplay(QuotePreviewSchema, "The quote."), ...errorResponses(400, 413, 415, 422) },
});

const feasibilityRoute = createRoute({
  method: "post",
  path: "/orders/feasibility",
  operationId: "assessOrderFeasibility",
  tags,
  summary: "Can an order be done, and by when",
  description:
    "Answers before any money moves, for a create-order body (validated as create validates it; nothing is created): per location, in request order, whether it can be done (`feasible`, with `reasons`), " +
    "its next windows (the sun at that place, the order's hours, weekday, season and dates) and an estimate of delivery from the service's own history near it — " +
    "`p50_hours`, `p90_hours`, `deliver_by` and the `basis` they rest on — or `estimate: null` with the reason where there is no such history; and the order's estimate (its slowest location's). " +
    "A question, not a request: an order that cannot be done is answered 200 with `feasible: false`, never refused; only a malformed body is 422. " +
    "Needs `orders:write`, as the quote does. The delivery URL is not checked here (the quote and create check it).",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: { headers: IdempotencyHeader, body: json(CreateOrderSchema) },
  responses: { 200: withReplay(FeasibilitySchema, "Each location's feasibility, windows and estimate, and the order's estimate."), ...errorResponses(400, 413, 415, 422) },
});

const createOrderRoute = createRoute({
  method: "post",
  path: "/orders",
  operationId: "createOrder",
  tags,
  summary: "Create an order",
  description: `Creates an order in \`pending_confirmation\` with its quote; confirm it to pay and dispatch. Unknown members are refused. States:\n${STATE_TABLE}`,
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: { headers: IdempotencyHeader, body: json(CreateOrderSchema) },
  responses: { 201: withReplay(OrderSchema, "The order."), ...errorResponses(400, 409, 413, 415, 422) },
});

const listRoute = createRoute({
  method: "get",
  path: "/orders",
  operationId: "listOrders",
  tags,
  summary: "List orders",
  description: "The organisation's orders, newest first.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { query: OrderListQuerySchema.extend(PagingQuery) },
  responses: { 200: jsonResponse(z.object({ data: z.array(OrderSchema), meta: ListMetaSchema }).openapi("OrderList"), "A page of orders."), ...errorResponses(422) },
});

const getRoute = createRoute({
  method: "get",
  path: "/orders/{id}",
  operationId: "getOrder",
  tags,
  summary: "Get an order",
  description:
    "One order of the caller's organisation: locations, requirements, recurrence, quote, state and progress.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam },
  responses: { 200: jsonResponse(OrderSchema, "The order."), ...errorResponses(404) },
});

const confirmRoute = createRoute({
  method: "post",
  path: "/orders/{id}/confirm",
  operationId: "confirmOrder",
  tags,
  summary: "Confirm and pay an order",
  description:
    "Checks the plan's monthly photo quota (402 when it would be exceeded), charges the card on file (a recurring order: its first cycle) and dispatches the order: " +
    "one `mis_` mission per location. The answer is the order: `in_progress` or `active` when paid, `payment_failed` when declined (confirm again), " +
    `\`payment_action_required\` when the card needs authentication (see the payment's \`next_action\`). ` +
    "409 `no_cycle_left`: a recurring order none of whose cycles is left to run (its dates or season have passed) is not charged; cancel it. " +
    "409 `order_expired`: the order is now `expired`. 409 `payment_in_progress`: another confirmation of the order is being charged; read the order shortly. " +
    `States:\n${STATE_TABLE}`,
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: { params: OrderIdParam, headers: IdempotencyHeader, body: json(ConfirmOrderSchema) },
  responses: { 200: withReplay(OrderSchema, "The order after payment."), ...errorResponses(400, 402, 404, 409, 413, 415, 422) },
});

const authenticateRoute = createRoute({
  method: "post",
  path: "/orders/{id}/payments/{payment_id}/authenticate",
  operationId: "authenticateOrderPayment",
  tags,
  summary: "Complete a card authentication (test mode)",
  description: "Test mode only: acts as the customer completing (or failing) 3-D Secure for a payment in `requires_action`. In live mode the card processor reports it.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: {
    params: OrderIdParam.extend({ payment_id: z.string().max(100).openapi({ param: { name: "payment_id", in: "path" } }) }),
    headers: IdempotencyHeader,
    body: json(z.strictObject({ authenticated: z.boolean() }).openapi("AuthenticatePayment")),
  },
  responses: { 200: withReplay(OrderSchema, "The order after the authentication."), ...errorResponses(400, 404, 409, 413, 415, 422) },
});

const cancelRoute = createRoute({
  method: "post",
  path: "/orders/{id}/cancel",
  operationId: "cancelOrder",
  tags,
  summary: "Cancel an order",
  description: "Cancels the order and its open missions. Undelivered work is refunded; a recurring order ends. The body (a reason) is optional.",
  security: orderSecurity("orders:write"),
  middleware: [write, optionalJsonBody, idempotency] as const,
  request: { params: OrderIdParam, headers: IdempotencyHeader, body: { content: { "application/json": { schema: CancelOrderSchema } }, required: false } },
  responses: { 200: withReplay(OrderSchema, "The cancelled order."), ...errorResponses(400, 404, 409, 422) },
});

const cancelLocationRoute = createRoute({
  method: "post",
  path: "/orders/{id}/locations/{location_id}/cancel",
  operationId: "cancelLateOrderLocation",
  tags,
  summary: "Cancel a late location free of charge",
  description:
    "A location that broke its promise — `delivery_status` `late` (still undelivered after `deliver_by`) or `delivered_late` — may be cancelled free of charge: its price for the cycle is refunded " +
    "through the order's payment (`order.refunded`, reason `late_location_cancelled`), exactly once. Still undelivered, its mission and open tasks are cancelled; delivered, its photos stay yours. " +
    "Repeating the call (or calling at the same moment) answers the same order and refunds nothing more. " +
    "409 `location_not_late`: the location is on time (on_track, at_risk, delivered_on_time) — cancel the order instead. 409 `location_not_dispatched`: it has no promise yet. " +
    "409 `location_closed`: it was given up or cancelled with its order (and refunded then). The body is optional.",
  security: orderSecurity("orders:write"),
  middleware: [write, optionalJsonBody, idempotency] as const,
  request: {
    params: OrderIdParam.extend({ location_id: z.string().max(100).openapi({ param: { name: "location_id", in: "path" }, example: "loc_duomo" }) }),
    headers: IdempotencyHeader,
    body: { content: { "application/json": { schema: CancelLocationSchema } }, required: false },
  },
  responses: { 200: withReplay(OrderSchema, "The order, with the location's `cancelled_at` and the refund among its payments."), ...errorResponses(400, 404, 409, 422) },
});

const onTimeReportRoute = createRoute({
  method: "get",
  path: "/orders/reports/on-time",
  operationId: "reportOrdersOnTime",
  tags,
  summary: "Monthly on-time report",
  description:
    "Per calendar month (UTC) from `from` to `to` (at most 36 months; default the last 12): the organisation's locations delivered (each location of each cycle, by the month of its delivery), " +
    "how many by their promise (`deliver_by`) and how many after it, and the share on time.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { query: OnTimeReportQuerySchema },
  responses: { 200: jsonResponse(OnTimeReportSchema, "The months, oldest first."), ...errorResponses(422) },
});

const pauseRoute = (action: "pause" | "resume") =>
  createRoute({
    method: "post",
    path: `/orders/{id}/${action}`,
    operationId: action === "pause" ? "pauseOrder" : "resumeOrder",
    tags,
    summary: action === "pause" ? "Pause a recurring order" : "Resume a recurring order",
    description:
      action === "pause"
        ? "Cycles that come due while paused are skipped (`order.cycle.skipped`, reason `paused`); nothing is charged for them."
        : "The next cycle that comes due is dispatched again.",
    security: orderSecurity("orders:write"),
    middleware: [write, idempotency] as const,
    request: { params: OrderIdParam, headers: IdempotencyHeader },
    responses: { 200: withReplay(OrderSchema, "The order."), ...errorResponses(404, 409) },
  });

const missionsRoute = createRoute({
  method: "get",
  path: "/orders/{id}/missions",
  operationId: "listOrderMissions",
  tags,
  summary: "The order's missions",
  description: "The missions dispatched for the order (one per location and cycle), latest cycle first. They are real missions of the mission interface.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam, query: z.object(PagingQuery) },
  responses: { 200: jsonResponse(z.object({ data: z.array(MissionSchema), meta: ListMetaSchema }).openapi("OrderMissionList"), "A page of missions."), ...errorResponses(404, 422) },
});

const photosRoute = createRoute({
  method: "get",
  path: "/orders/{id}/photos",
  operationId: "listOrderPhotos",
  tags,
  summary: "The order's delivered photos",
  description: "Delivered (verified) photos in the spec's Delivered photo record, oldest first — the same records `photos.delivered` carried. URLs are signed and valid for 7 days.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam, query: z.object(PagingQuery) },
  responses: { 200: jsonResponse(z.object({ data: z.array(DeliveredPhotoSchema), meta: ListMetaSchema }).openapi("DeliveredPhotoList"), "A page of photos."), ...errorResponses(404, 422) },
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
      location_id: z.string().max(68).optional().openapi({ description: "Only this location's photos (one of the order's location ids).", example: "loc_duomo" }),
    }),
  },
  responses: {
    200: {
      description: "The archive.",
      headers: rateLimitHeaderDocs,
      content: { "application/zip": { schema: z.string().openapi({ format: "binary", example: "(binary ZIP: photos/loc_duomo/cycle-001-front-img_06h0….jpg, metadata.json)" }) } },
    },
    ...errorResponses(404, 422),
  },
});


const assignmentsRoute = createRoute({
  method: "get",
  path: "/orders/{id}/assignments",
  operationId: "listOrderAssignments",
  tags,
  summary: "The order's field work",
  description: "Each location × angle and attempt: who took it, late or not, its verification and delivery. Latest cycle first.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: { params: OrderIdParam, query: z.object(PagingQuery) },
  responses: { 200: jsonResponse(z.object({ data: z.array(OrderAssignmentSchema), meta: ListMetaSchema }).openapi("OrderAssignmentList"), "A page of assignments."), ...errorResponses(404, 422) },
});

const scheduleRoute = createRoute({
  method: "get",
  path: "/orders/{id}/schedule",
  operationId: "getOrderSchedule",
  tags,
  summary: "The next cycles of a recurring order",
  description: "Each cycle's local date, dispatch time and window in every time zone the order's locations are in. 409 for a one-off order.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  request: {
    params: OrderIdParam,
    query: z.object({ count: z.coerce.number().int().min(1).max(52).default(5).openapi({ description: "How many cycles (at most 52).", example: 5 }) }),
  },
  responses: { 200: jsonResponse(ScheduleSchema, "The schedule."), ...errorResponses(404, 409, 422) },
});

const DeliveryQuery = z.object({ ...PagingQuery, status: z.string().max(100).optional().openapi({ description: "pending, delivering, succeeded, failed (comma-separated)." }) });

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
  responses: { 200: jsonResponse(z.object({ data: z.array(DeliverySchema), meta: ListMetaSchema }).openapi("OrderDeliveryList"), "Newest first."), ...errorResponses(404, 422) },
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
  request: { params: OrderIdParam.extend({ delivery_id: z.string().max(100).openapi({ param: { name: "delivery_id", in: "path" } }) }), headers: IdempotencyHeader },
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



const DraftIdParam = z.object({ id: z.string().max(100).openapi({ param: { name: "id", in: "path" } }) });
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
    description:
      "Starts a server-side draft of an order (the dashboard's wizard saves each step here); nothing is priced or charged.",
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
    description:
      "One saved order draft with the steps filled in so far.",
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
    description:
      "Deletes an order draft; orders created from it are not affected.",
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

const pricesRoute = createRoute({
  method: "get",
  path: "/prices",
  operationId: "getOrderPrices",
  tags,
  summary: "The price list in force",
  description:
    "What quotes are computed from: the price per photo by category, the surcharge by time of day and for analysis requirements, and the recurring discounts. " +
    "The operator may change it; an order keeps the quote it was created with.",
  security: orderSecurity("orders:read"),
  middleware: [read] as const,
  responses: { 200: jsonResponse(PriceListSchema.extend({ updated_at: z.string() }).openapi("OrderPrices"), "The prices in force."), ...errorResponses() },
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
    params: OrderIdParam.extend({ photo_id: z.string().max(100).openapi({ param: { name: "photo_id", in: "path" } }) }),
    headers: IdempotencyHeader,
    body: json(z.strictObject({ reason: z.string().trim().min(3, "Say what is wrong, for the zoomer.").max(500) }).openapi("RequestRetake")),
  },
  responses: { 202: withReplay(z.object({ assignment_id: z.string() }).openapi("RetakeRequested"), "The retake task."), ...errorResponses(400, 404, 409, 413, 415, 422) },
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
    params: OrderIdParam.extend({ photo_id: z.string().max(100).openapi({ param: { name: "photo_id", in: "path" } }) }),
    headers: IdempotencyHeader,
    body: json(
      z
        .strictObject({
          decision: z.enum(["approve", "reject"]),
          reason: z.string().trim().min(3, "Say what is wrong, for the zoomer.").max(500).optional().openapi({ description: "Required to reject: the retake's instruction." }),
        })
        .openapi("ReviewHeldPhoto"),
    ),
  },
  responses: {
    200: withReplay(z.object({ status: z.enum(["verified", "failed", "given_up"]).openapi({ description: "The assignment's state after the decision." }) }).openapi("HeldPhotoReviewed"), "Decided."),
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
  request: { params: OrderIdParam.extend({ photo_id: z.string().max(100).openapi({ param: { name: "photo_id", in: "path" } }) }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          photo_id: z.string(),
          evidence: z.string().openapi({ description: "The compact JWS." }),
          record: z.record(z.string(), z.unknown()).openapi({ description: "Its claims, decoded: iss, iat, photo_id, order_id, location_id, angle, sha256, byte_size, verification, checks, review, positions, times." }),
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

export function registerOrderRoutes(app: OpenAPIHono<AppEnv>) {
  // POST /orders/quote – price an order without creating it
  app.openapi(quoteRoute, async (c) => {
    return c.json(await quoteOrderPreview(c.var.ctx, { caller: callerWithPlan(c), input: c.req.valid("json"), cycles: QUOTE_PREVIEW_CYCLES }), 200);
  });

  // POST /orders/feasibility – can the order be done, when, and by when would it be delivered
  app.openapi(feasibilityRoute, async (c) => c.json(await assessFeasibility(c.var.ctx, { input: c.req.valid("json") }), 200));

  // POST /orders – create an order (pending_confirmation)
  app.openapi(createOrderRoute, async (c) => {
    const location = (order: { id: string }) => ({ location: `${c.var.ctx.config.publicOrigin}${ORDERS_BASE_PATH}/orders/${order.id}` });
    // The idempotent response is stored in the order's own transaction (one statement less).
    const order = await createOrder(c.var.ctx, callerWithPlan(c), c.req.valid("json"), { beforeCommit: storeJsonWithWrite(c, 201, location) });
    c.header("Location", location(order).location);
    return c.json(order, 201);
  });

  // GET /orders – list the organisation's orders
  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const filters = { statuses: parseStatusFilter(query.status, ORDER_STATUSES, null), clientReference: query.client_reference, createdSince: query.created_since, page: query.page, perPage: query.per_page };
    return c.json(await listOrders(c.var.ctx, { orgId: callerOrg(c), filters }), 200);
  });

  // GET /orders/:id – one order
  app.openapi(getRoute, async (c) => c.json(await getOrder(c.var.ctx, orderOf(c)), 200));

  // POST /orders/:id/confirm – pay and dispatch
  app.openapi(confirmRoute, async (c) => {
    await confirmOrder(c.var.ctx, { ...orderOf(c), paymentMethodId: c.req.valid("json").payment_method_id });
    return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
  });

  // POST /orders/:id/payments/:payment_id/authenticate – test-mode 3-D Secure
  app.openapi(authenticateRoute, async (c) => {
    await authenticatePayment(c.var.ctx, { ...orderOf(c), paymentId: c.req.valid("param").payment_id, authenticated: c.req.valid("json").authenticated });
    return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
  });

  // POST /orders/:id/cancel – cancel, refunding undelivered work (the body, a reason, is optional)
  app.openapi(cancelRoute, async (c) => {
    const text = await c.req.text();
    const body = text.trim() ? CancelOrderSchema.safeParse(storable(parseJsonBody(text))) : { success: true as const, data: {} };
    if (!body.success) throw validationFailed(body.error);
    await cancelOrder(c.var.ctx, { ...orderOf(c), reason: body.data.reason });
    return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
  });

  // POST /orders/:id/locations/:location_id/cancel – a late location, free of charge (the body is optional)
  app.openapi(cancelLocationRoute, async (c) => {
    const text = await c.req.text();
    const body = text.trim() ? CancelLocationSchema.safeParse(storable(parseJsonBody(text))) : { success: true as const, data: {} };
    if (!body.success) throw validationFailed(body.error);
    await cancelLateLocation(c.var.ctx, { ...orderOf(c), locationId: c.req.valid("param").location_id, cycleIndex: body.data.cycle_index, reason: body.data.reason });
    return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
  });

  // GET /orders/reports/on-time – locations delivered by their promise, per month
  app.openapi(onTimeReportRoute, async (c) => c.json(await reportOnTime(c.var.ctx, { orgId: callerOrg(c), ...c.req.valid("query") }), 200));

  for (const action of ["pause", "resume"] as const) {
    // POST /orders/:id/pause, /resume – recurring orders
    app.openapi(pauseRoute(action), async (c) => {
      await setOrderPaused(c.var.ctx, { ...orderOf(c), paused: action === "pause" });
      return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
    });
  }

  // GET /orders/:id/missions – dispatched missions
  app.openapi(missionsRoute, async (c) => c.json(await listOrderMissions(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200));

  // GET /orders/:id/photos – delivered photos
  app.openapi(photosRoute, async (c) => c.json(await listOrderPhotos(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200));

  // GET /orders/:id/photos.zip – delivered photos as a ZIP (the order's, or one location's)
  app.openapi(photosZipRoute, async (c) => {
    const archive = await exportOrderPhotos(c.var.ctx, { ...orderOf(c), locationId: c.req.valid("query").location_id ?? null });
    return c.body(Readable.toWeb(archive.stream) as ReadableStream, 200, {
      "Content-Type": "application/zip",
      "Content-Length": String(archive.size),
      "Content-Disposition": `attachment; filename="${archive.filename}"`,
      "X-Photo-Count": String(archive.photoCount),
    });
  });

  // GET /orders/:id/assignments – field work, retakes, lateness
  app.openapi(assignmentsRoute, async (c) => c.json(await listOrderAssignments(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200));

  // GET /orders/:id/schedule – next cycles of a recurring order
  app.openapi(scheduleRoute, async (c) => {
    const { orgId, orderId } = orderOf(c);
    const schedule = await orderSchedule(c.var.ctx, orgId, orderId, c.req.valid("query").count);
    if (!schedule) throw new ApiError(409, "order_not_recurring", "This order is one-off: it has no schedule.");
    return c.json(schedule, 200);
  });

  // GET /orders/:id/deliveries – the delivery log of the order's webhook URL
  app.openapi(deliveriesRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(await listOrderDeliveries(c.var.ctx, { ...orderOf(c), status: query.status, ...pageOf(query) }), 200);
  });

  // POST /orders/:id/deliveries/:delivery_id/redeliver – one more attempt
  app.openapi(redeliverRoute, async (c) => c.json(await redeliverOrderDelivery(c.var.ctx, { ...orderOf(c), deliveryId: c.req.valid("param").delivery_id }), 200));

  // POST /orders/:id/photos/:photo_id/retake – the partner sends a photo back
  app.openapi(retakeRoute, async (c) => {
    const assignmentId = await requestRetake(c.var.ctx, { ...orderOf(c), photoId: c.req.valid("param").photo_id, reason: c.req.valid("json").reason });
    return c.json({ assignment_id: assignmentId }, 202);
  });

  // GET /orders/:id/photos/:photo_id/evidence – a delivered photo's signed verification record
  app.openapi(evidenceRoute, async (c) => {
    const evidence = await getPhotoEvidence(c.var.ctx, { ...orderOf(c), photoId: c.req.valid("param").photo_id });
    return c.json({ ...evidence, jwks_uri: `${c.var.ctx.config.publicOrigin}${WELL_KNOWN_JWKS_PATH}` }, 200);
  });

  // POST /orders/:id/photos/:photo_id/review – approve or reject a photo held for review
  app.openapi(reviewRoute, async (c) => {
    const body = c.req.valid("json");
    const decided = await reviewHeldPhoto(c.var.ctx, { ...orderOf(c), photoId: c.req.valid("param").photo_id, decision: body.decision, reason: body.reason, reviewer: reviewerOf(c) });
    return c.json(decided, 200);
  });

  // GET /prices – the price list quotes are computed from
  app.openapi(pricesRoute, async (c) => {
    const { prices, updatedAt } = await getPriceList(c.var.ctx.db);
    return c.json({ ...prices, updated_at: updatedAt.toISOString() }, 200);
  });

  // GET /drafts – the wizard's drafts
  app.openapi(draftRoutes.list, async (c) => c.json({ data: await listDrafts(c.var.ctx, { orgId: callerOrg(c) }) }, 200));

  // POST /drafts – start one
  app.openapi(draftRoutes.create, async (c) => c.json(await createDraft(c.var.ctx, { orgId: callerOrg(c), ...c.req.valid("json") }), 201));

  // GET /drafts/:id – one draft
  app.openapi(draftRoutes.get, async (c) => c.json(await getDraft(c.var.ctx, draftOf(c)), 200));

  // PUT /drafts/:id – save (If-Match: version)
  app.openapi(draftRoutes.save, async (c) => {
    const { body, step, order_id } = c.req.valid("json");
    const expectedVersion = versionOf(c.req.valid("header")["if-match"]);
    return c.json(await saveDraft(c.var.ctx, { ...draftOf(c), body, step, orderId: order_id, expectedVersion }), 200);
  });

  // POST /drafts/:id/place – create, link and pay the draft's order in one request
  app.openapi(placeDraftRoute, async (c) => {
    const { version, payment_method_id } = c.req.valid("json");
    const placed = await placeOrder(c.var.ctx, { caller: callerWithPlan(c), draftId: c.req.valid("param").id, version, paymentMethodId: payment_method_id });
    return c.json(placed, 200);
  });

  // DELETE /drafts/:id – discard
  app.openapi(draftRoutes.remove, async (c) => {
    await deleteDraft(c.var.ctx, draftOf(c));
    return c.body(null, 204);
  });

  // POST /delivery-test – one signed test event to a URL, answered with the receiver's status
  app.openapi(deliveryTestRoute, async (c) => c.json(await testDeliveryUrl(c.var.ctx, { orgId: callerOrg(c), url: c.req.valid("json").url }), 200));

  // GET /delivery-secret – whether the order-delivery secret exists
  app.openapi(secretInfoRoute, async (c) => c.json(await getDeliverySecretInfo(c.var.ctx, { orgId: callerOrg(c) }), 200));

  // POST /delivery-secret – create it (shown once)
  app.openapi(secretCreateRoute, async (c) => c.json(await createDeliverySecret(c.var.ctx, { orgId: callerOrg(c) }), 201));

  // POST /delivery-secret/rotate – a new one (shown once), the old one in grace
  app.openapi(secretRotateRoute, async (c) => c.json(await rotateDeliverySecret(c.var.ctx, { orgId: callerOrg(c) }), 200));
}

// ——— what the handlers read from a request ———

type RouteContext = { var: AppEnv["Variables"]; req: { param(name: "id"): string } };

/** The caller's organisation and the order named in the path. */
function orderOf(c: RouteContext): { orgId: string; orderId: string } {
  return { orgId: callerOrg(c), orderId: c.req.param("id") };
}

/** The caller's organisation and the draft named in the path. */
function draftOf(c: RouteContext): { orgId: string; draftId: string } {
  return { orgId: callerOrg(c), draftId: c.req.param("id") };
}

const pageOf = (query: { page: number; per_page: number }) => ({ page: query.page, perPage: query.per_page });

function storable(value: unknown): unknown {
  assertStorableInput(value, "body");
  return value;
}

/** If-Match: "3" (or W/"3") → 3; absent → undefined. */
function versionOf(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined) return undefined;
  const version = Number(ifMatch.replaceAll('"', "").replace(/^W\//, ""));
  if (!Number.isInteger(version)) throw new ApiError(422, "validation_failed", "If-Match must be a draft version.", { errors: [{ pointer: "if-match", in: "header", message: 'Use the version, e.g. "3".' }] });
  return version;
}
