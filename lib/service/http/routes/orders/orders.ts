// The order resource (/api/orders/v1/orders): create, list, read, confirm and pay, cancel, pause and
// resume, and what an order produced (missions, field work, schedule).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ORDER_STATUSES } from "@/lib/orders/vocabulary";
import { MissionSchema } from "@/lib/schemas/mission";
import {
  CancelOrderSchema,
  ConfirmOrderSchema,
  CreateOrderSchema,
  OrderAssignmentSchema,
  OrderListQuerySchema,
  OrderSchema,
  ScheduleSchema,
} from "@/lib/schemas/order";
import { ORDERS_BASE_PATH } from "@/lib/service/context";
import { cancelOrder, setOrderPaused } from "@/lib/service/orders/change-order";
import { authenticatePayment, confirmOrder } from "@/lib/service/orders/confirm-order";
import { createOrder } from "@/lib/service/orders/create-order";
import { getOrder, getOrderSchedule, listOrderAssignments, listOrderMissions, listOrders } from "@/lib/service/orders/order-views";
import { parseStatusFilter } from "@/lib/service/query-filters";
import { callerOrg, callerWithPlan } from "../../middleware/authenticate";
import { idempotency, storeJsonWithWrite } from "../../middleware/idempotency";
import { jsonBody, optionalJsonBody } from "../../middleware/json-body";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, orderSecurity } from "../../openapi-common";
import type { AppEnv } from "../../types";
import { IdempotencyHeader, OrderIdParam, json, optionalBody, orderOf, pageOf, read, tags, withReplay, write, type MountOperation } from "./common";

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
  responses: {
    200: jsonResponse(z.object({ data: z.array(OrderSchema), meta: ListMetaSchema }).openapi("OrderList"), "A page of orders."),
    ...errorResponses(422),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/orders/{id}",
  operationId: "getOrder",
  tags,
  summary: "Get an order",
  description: "One order of the caller's organisation: locations, requirements, recurrence, quote, state and progress.",
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
  description:
    "Test mode only: acts as the customer completing (or failing) 3-D Secure for a payment in `requires_action`. In live mode the card processor reports it.",
  security: orderSecurity("orders:write"),
  middleware: [write, jsonBody, idempotency] as const,
  request: {
    params: OrderIdParam.extend({
      payment_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "payment_id", in: "path" } }),
    }),
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
  responses: {
    200: jsonResponse(z.object({ data: z.array(MissionSchema), meta: ListMetaSchema }).openapi("OrderMissionList"), "A page of missions."),
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
  responses: {
    200: jsonResponse(z.object({ data: z.array(OrderAssignmentSchema), meta: ListMetaSchema }).openapi("OrderAssignmentList"), "A page of assignments."),
    ...errorResponses(404, 422),
  },
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

/** The order resource's operations, by operationId. */
export const orderOperations = {
  // POST /orders – create an order (pending_confirmation)
  createOrder: (app) =>
    app.openapi(createOrderRoute, async (c) => {
      const location = (order: { id: string }) => ({ location: `${c.var.ctx.config.publicOrigin}${ORDERS_BASE_PATH}/orders/${order.id}` });
      // The idempotent response is stored in the order's own transaction (one statement less).
      const order = await createOrder(c.var.ctx, { caller: callerWithPlan(c), input: c.req.valid("json"), beforeCommit: storeJsonWithWrite(c, 201, location) });
      c.header("Location", location(order).location);
      return c.json(order, 201);
    }),

  // GET /orders – list the organisation's orders
  listOrders: (app) =>
    app.openapi(listRoute, async (c) => {
      const query = c.req.valid("query");
      const filters = {
        statuses: parseStatusFilter(query.status, ORDER_STATUSES, null),
        clientReference: query.client_reference,
        createdSince: query.created_since,
        page: query.page,
        perPage: query.per_page,
      };
      return c.json(await listOrders(c.var.ctx, { orgId: callerOrg(c), filters }), 200);
    }),

  // GET /orders/:id – one order
  getOrder: (app) => app.openapi(getRoute, async (c) => c.json(await getOrder(c.var.ctx, orderOf(c)), 200)),

  // POST /orders/:id/confirm – pay and dispatch
  confirmOrder: (app) =>
    app.openapi(confirmRoute, async (c) => {
      await confirmOrder(c.var.ctx, { ...orderOf(c), paymentMethodId: c.req.valid("json").payment_method_id });
      return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
    }),

  // POST /orders/:id/payments/:payment_id/authenticate – test-mode 3-D Secure
  authenticateOrderPayment: (app) =>
    app.openapi(authenticateRoute, async (c) => {
      await authenticatePayment(c.var.ctx, { ...orderOf(c), paymentId: c.req.valid("param").payment_id, authenticated: c.req.valid("json").authenticated });
      return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
    }),

  // POST /orders/:id/cancel – cancel, refunding undelivered work (the body, a reason, is optional)
  cancelOrder: (app) =>
    app.openapi(cancelRoute, async (c) => {
      const body = await optionalBody(c, CancelOrderSchema);
      await cancelOrder(c.var.ctx, { ...orderOf(c), reason: body.reason });
      return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
    }),

  // POST /orders/:id/pause – a recurring order skips the cycles that come due
  pauseOrder: (app) => mountPause(app, "pause"),

  // POST /orders/:id/resume – a recurring order runs again
  resumeOrder: (app) => mountPause(app, "resume"),

  // GET /orders/:id/missions – dispatched missions
  listOrderMissions: (app) =>
    app.openapi(missionsRoute, async (c) => c.json(await listOrderMissions(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200)),

  // GET /orders/:id/assignments – field work, retakes, lateness
  listOrderAssignments: (app) =>
    app.openapi(assignmentsRoute, async (c) => c.json(await listOrderAssignments(c.var.ctx, { ...orderOf(c), ...pageOf(c.req.valid("query")) }), 200)),

  // GET /orders/:id/schedule – next cycles of a recurring order
  getOrderSchedule: (app) =>
    app.openapi(scheduleRoute, async (c) => c.json(await getOrderSchedule(c.var.ctx, { ...orderOf(c), count: c.req.valid("query").count }), 200)),
} satisfies Record<string, MountOperation>;

// POST /orders/:id/pause, /resume – recurring orders
function mountPause(app: OpenAPIHono<AppEnv>, action: "pause" | "resume") {
  app.openapi(pauseRoute(action), async (c) => {
    await setOrderPaused(c.var.ctx, { ...orderOf(c), paused: action === "pause" });
    return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
  });
}
