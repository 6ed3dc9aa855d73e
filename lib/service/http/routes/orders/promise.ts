// The delivery promise after the fact: cancelling a late location free of charge, and the
// organisation's monthly on-time report.
import { createRoute, z } from "@hono/zod-openapi";
import { CancelLocationSchema, OnTimeReportQuerySchema, OnTimeReportSchema, OrderSchema } from "@/lib/schemas/order";
import { cancelLateLocation } from "@/lib/service/orders/cancel-late-location";
import { getOrder } from "@/lib/service/orders/order-views";
import { reportOnTime } from "@/lib/service/orders/report-on-time";
import { callerOrg } from "../../middleware/authenticate";
import { idempotency } from "../../middleware/idempotency";
import { optionalJsonBody } from "../../middleware/json-body";
import { errorResponses, jsonResponse, orderSecurity } from "../../openapi-common";
import { IdempotencyHeader, OrderIdParam, optionalBody, orderOf, read, tags, withReplay, write, type MountOperation } from "./common";

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
    params: OrderIdParam.extend({
      location_id: z
        .string()
        .max(100)
        .openapi({ param: { name: "location_id", in: "path" }, example: "loc_duomo" }),
    }),
    headers: IdempotencyHeader,
    body: { content: { "application/json": { schema: CancelLocationSchema } }, required: false },
  },
  responses: {
    200: withReplay(OrderSchema, "The order, with the location's `cancelled_at` and the refund among its payments."),
    ...errorResponses(400, 404, 409, 422),
  },
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

/** The delivery promise's operations, by operationId. */
export const promiseOperations = {
  // POST /orders/:id/locations/:location_id/cancel – a late location, free of charge (the body is optional)
  cancelLateOrderLocation: (app) =>
    app.openapi(cancelLocationRoute, async (c) => {
      const body = await optionalBody(c, CancelLocationSchema);
      await cancelLateLocation(c.var.ctx, { ...orderOf(c), locationId: c.req.valid("param").location_id, cycleIndex: body.cycle_index, reason: body.reason });
      return c.json(await getOrder(c.var.ctx, orderOf(c)), 200);
    }),

  // GET /orders/reports/on-time – locations delivered by their promise, per month
  reportOrdersOnTime: (app) =>
    app.openapi(onTimeReportRoute, async (c) => c.json(await reportOnTime(c.var.ctx, { orgId: callerOrg(c), ...c.req.valid("query") }), 200)),
} satisfies Record<string, MountOperation>;
