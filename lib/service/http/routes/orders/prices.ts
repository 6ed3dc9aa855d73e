// Prices before an order exists: the quote of a create-order body, whether and by when it can be
// done, and the price list quotes are computed from.
import { createRoute, z } from "@hono/zod-openapi";
import { CreateOrderSchema, FeasibilitySchema, QuotePreviewSchema } from "@/lib/schemas/order";
import { assessFeasibility } from "@/lib/service/orders/assess-feasibility";
import { PriceListSchema, getPriceListJson } from "@/lib/service/orders/price-list";
import { QUOTE_PREVIEW_CYCLES, quoteOrderPreview } from "@/lib/service/orders/quote-order";
import { callerWithPlan } from "../../middleware/authenticate";
import { idempotency } from "../../middleware/idempotency";
import { jsonBody } from "../../middleware/json-body";
import { sendJsonText } from "../../send-json-text";
import { errorResponses, jsonResponse, orderSecurity } from "../../openapi-common";
import { IdempotencyHeader, json, read, tags, withReplay, write, type MountOperation } from "./common";

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
  responses: {
    200: withReplay(FeasibilitySchema, "Each location's feasibility, windows and estimate, and the order's estimate."),
    ...errorResponses(400, 413, 415, 422),
  },
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

/** The price operations, by operationId. */
export const priceOperations = {
  // POST /orders/quote – price an order without creating it
  quoteOrder: (app) =>
    app.openapi(quoteRoute, async (c) => {
      return c.json(await quoteOrderPreview(c.var.ctx, { caller: callerWithPlan(c), input: c.req.valid("json"), cycles: QUOTE_PREVIEW_CYCLES }), 200);
    }),

  // POST /orders/feasibility – can the order be done, when, and by when would it be delivered
  assessOrderFeasibility: (app) => app.openapi(feasibilityRoute, async (c) => c.json(await assessFeasibility(c.var.ctx, { input: c.req.valid("json") }), 200)),

  // GET /prices – the price list quotes are computed from
  getOrderPrices: (app) => app.openapi(pricesRoute, async (c) => sendJsonText(c, await getPriceListJson(c.var.ctx.db), 200)),
} satisfies Record<string, MountOperation>;
