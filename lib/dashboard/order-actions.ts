"use server";
// The order wizard's and the order page's writes, each through the action client (session → role
// → zod → handler → typed result) and the typed API client: credentials stay on the server. Pages
// are dynamic and read the order afresh on every render, so no revalidatePath is needed.
import { z } from "zod";
import type { components } from "@/lib/api-client/openapi-types";
import type { ApiClient } from "@/lib/api-client/client";
import { dashboardAction, problemResult, type ActionResult } from "@/lib/dashboard/action-client";
import { cancelLocationKey, changeOrderKey, payOrderKey, placeOrderKey, retakeKey, reviewKey } from "./order-idempotency-keys";
import { DraftIdSchema, OrderDraftBodySchema, SaveDraftSchema, type OrderDraftBody } from "@/lib/orders/draft";
import { LocationIdSchema, OrderIdSchema } from "@/lib/orders/order-ids";
import { PAYABLE_STATUSES } from "@/lib/orders/vocabulary";
import { HeldPhotoReviewSchema, RetakeRequestSchema } from "@/lib/orders/retake";
import { toCreateBody } from "@/lib/orders/draft";

type CreateOrderBody = components["schemas"]["CreateOrder"];
type QuotePreview = components["schemas"]["QuotePreview"];

/** While the first request with a key is still running the API answers 409 idempotency_key_in_use: wait and ask again. */
async function untilSettled<T extends { response: Response; error?: unknown }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const result = await send();
    const code = (result.error as { code?: string } | undefined)?.code;
    if (result.response.status !== 409 || code !== "idempotency_key_in_use" || attempt >= 20) return result;
    const wait = Number(result.response.headers.get("retry-after")) || 1;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 2) * 500));
  }
}

// POST /api/orders/v1/drafts — a new, empty draft; the same request key answers the same draft.
export const startOrderDraft = dashboardAction({
  least: "editor",
  schema: z.object({ requestKey: z.uuid() }),
  handler: async ({ requestKey }, access) => {
    const { data, error, response } = await untilSettled(() =>
      access.api.POST("/api/orders/v1/drafts", {
        params: { header: { "idempotency-key": `dashboard:draft:${requestKey}` } },
        body: { body: {}, step: "locations" },
      }),
    );
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { id: data.id } };
  },
});

// PUT /api/orders/v1/drafts/{id} with If-Match — 412 draft_changed when another tab saved first.
export const saveOrderDraft = dashboardAction({
  least: "editor",
  schema: SaveDraftSchema,
  handler: async ({ id, version, step, body }, access) => {
    const { data, error, response } = await access.api.PUT("/api/orders/v1/drafts/{id}", {
      params: { path: { id }, header: { "if-match": `"${version}"` } },
      body: { body, step },
    });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { version: data.version, updatedAt: data.updated_at } };
  },
});

// DELETE /api/orders/v1/drafts/{id}
export const discardOrderDraft = dashboardAction({
  least: "editor",
  schema: z.object({ id: DraftIdSchema }),
  handler: async ({ id }, access) => {
    const { error, response } = await access.api.DELETE("/api/orders/v1/drafts/{id}", { params: { path: { id } } });
    if (!response.ok) return problemResult(response.status, error);
    return { ok: true, data: { id } };
  },
});

async function quote(api: ApiClient, body: OrderDraftBody): Promise<ActionResult<QuotePreview>> {
  const { data, error, response } = await api.POST("/api/orders/v1/orders/quote", { body: toCreateBody(body) as CreateOrderBody });
  if (!data) return problemResult(response.status, error);
  return { ok: true, data };
}

// POST /api/orders/v1/orders/quote — prices the form as it is now (nothing is created).
export const quoteOrderDraft = dashboardAction({
  least: "editor",
  schema: z.object({ body: OrderDraftBodySchema }),
  handler: async ({ body }, access) => quote(access.api, body as OrderDraftBody),
});

const PAYABLE = new Set<string>(PAYABLE_STATUSES);

/** What placing a draft's order can end in, besides a refusal of the draft itself. */
export type PlaceOrderResult =
  | { ok: true; data: { orderId: string; status: string } }
  /** The order exists but was not paid: the page links to it to try the payment again. */
  | { ok: false; code: "order_not_paid"; reason: string; error: string; orderId: string }
  | { ok: false; code: string; error: string; fieldErrors?: Record<string, string[]> };

/**
 * Places the order a draft stands for and pays it with the card on file, in one request to the
 * order interface (POST /drafts/{id}/place): it creates the order once per draft and charges it
 * once. `requestKey` is the page's key for this attempt, so a double click or a retried submit is
 * answered the first response again.
 */
export const placeOrderFromDraft = dashboardAction({
  least: "editor",
  schema: z.object({ draftId: DraftIdSchema, version: z.number().int().min(1), requestKey: z.uuid() }),
  handler: async ({ draftId, version, requestKey }, access): Promise<PlaceOrderResult> => {
    const { data, error, response } = await untilSettled(() =>
      access.api.POST("/api/orders/v1/drafts/{id}/place", {
        params: { path: { id: draftId }, header: { "idempotency-key": placeOrderKey(draftId, version, requestKey) } },
        body: { version, payment_method: "card" },
      }),
    );
    if (!data) return problemResult(response.status, error);
    if (data.payment.status === "not_paid") {
      return { ok: false, code: "order_not_paid", reason: data.payment.code, error: data.payment.detail, orderId: data.order.id };
    }
    return { ok: true, data: { orderId: data.order.id, status: data.order.status } };
  },
});

// POST /api/orders/v1/orders/{id}/confirm — pay an order placed earlier (e.g. after a declined card).
export const payOrder = dashboardAction({
  least: "editor",
  schema: z.object({ orderId: OrderIdSchema }),
  handler: async ({ orderId }, access) => {
    const current = await access.api.GET("/api/orders/v1/orders/{id}", { params: { path: { id: orderId } } });
    if (!current.data) return problemResult(current.response.status, current.error);
    if (!PAYABLE.has(current.data.status)) return { ok: true, data: { status: current.data.status } };
    const attempts = current.data.payments.filter((p) => p.kind === "charge").length;
    const answer = await untilSettled(() =>
      access.api.POST("/api/orders/v1/orders/{id}/confirm", {
        params: { path: { id: orderId }, header: { "idempotency-key": payOrderKey(orderId, attempts) } },
        body: { payment_method: "card" },
      }),
    );
    if (!answer.data) return problemResult(answer.response.status, answer.error);
    return { ok: true, data: { status: answer.data.status } };
  },
});

// POST /api/orders/v1/orders/{id}/pause|resume|cancel — from the order page, after a confirmation.
export const changeOrderState = dashboardAction({
  least: "editor",
  schema: z.object({
    orderId: OrderIdSchema,
    action: z.enum(["pause", "resume", "cancel"]),
    updatedAt: z.string().max(40),
    reason: z.string().trim().max(500).optional(),
  }),
  handler: async ({ orderId, action, updatedAt, reason }, access) => {
    const header = { "idempotency-key": changeOrderKey(orderId, action, updatedAt) };
    const path = { id: orderId };
    const answer =
      action === "cancel"
        ? await untilSettled(() => access.api.POST("/api/orders/v1/orders/{id}/cancel", { params: { path, header }, body: reason ? { reason } : {} }))
        : action === "pause"
          ? await untilSettled(() => access.api.POST("/api/orders/v1/orders/{id}/pause", { params: { path, header } }))
          : await untilSettled(() => access.api.POST("/api/orders/v1/orders/{id}/resume", { params: { path, header } }));
    if (!answer.data) return problemResult(answer.response.status, answer.error);
    return { ok: true, data: { status: answer.data.status } };
  },
});

// POST /api/orders/v1/orders/{id}/locations/{location_id}/cancel — a late location cancelled free of charge (refunded once).
export const cancelLateLocation = dashboardAction({
  least: "editor",
  schema: z.object({ orderId: OrderIdSchema, locationId: LocationIdSchema, cycleIndex: z.number().int().min(0).max(100_000) }),
  handler: async ({ orderId, locationId, cycleIndex }, access) => {
    const { data, error, response } = await untilSettled(() =>
      access.api.POST("/api/orders/v1/orders/{id}/locations/{location_id}/cancel", {
        params: { path: { id: orderId, location_id: locationId }, header: { "idempotency-key": cancelLocationKey(orderId, locationId, cycleIndex) } },
        body: { cycle_index: cycleIndex },
      }),
    );
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { refundedCents: data.amount_refunded_cents } };
  },
});

// POST /api/orders/v1/orders/{id}/photos/{photo_id}/retake — a new task with the reason as its instruction.
export const requestPhotoRetake = dashboardAction({
  least: "editor",
  schema: RetakeRequestSchema,
  handler: async ({ orderId, photoId, reason }, access) => {
    const { data, error, response } = await untilSettled(() =>
      access.api.POST("/api/orders/v1/orders/{id}/photos/{photo_id}/retake", {
        params: { path: { id: orderId, photo_id: photoId }, header: { "idempotency-key": retakeKey(orderId, photoId) } },
        body: { reason },
      }),
    );
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { assignmentId: data.assignment_id } };
  },
});

// POST /api/orders/v1/orders/{id}/photos/{photo_id}/review — approve or reject a photo held for review.
export const reviewHeldPhoto = dashboardAction({
  least: "editor",
  schema: HeldPhotoReviewSchema,
  handler: async (input, access) => {
    const { data, error, response } = await untilSettled(() =>
      access.api.POST("/api/orders/v1/orders/{id}/photos/{photo_id}/review", {
        params: { path: { id: input.orderId, photo_id: input.photoId }, header: { "idempotency-key": reviewKey(input.orderId, input.photoId) } },
        body: input.decision === "reject" ? { decision: "reject", reason: input.reason } : { decision: "approve" },
      }),
    );
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { status: data.status } };
  },
});

// POST /api/orders/v1/delivery-secret — the secret that signs deliveries to webhook URLs, shown once.
export const createDeliverySecret = dashboardAction({
  least: "editor",
  schema: z.object({}),
  handler: async (_input, access) => {
    const { data, error, response } = await access.api.POST("/api/orders/v1/delivery-secret", {});
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { secret: data.secret, createdAt: data.created_at } };
  },
});

// POST /api/orders/v1/delivery-test — one signed test event to the URL, answered with what the receiver said.
export const testDeliveryUrl = dashboardAction({
  least: "editor",
  schema: z.object({ url: z.string().trim().min(1, "Give the URL to test.").max(2048, "At most 2048 characters.") }),
  handler: async ({ url }, access) => {
    const { data, error, response } = await access.api.POST("/api/orders/v1/delivery-test", { body: { url } });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { ok: data.ok, statusCode: data.status_code, durationMs: data.duration_ms, error: data.error, snippet: data.response_snippet } };
  },
});
