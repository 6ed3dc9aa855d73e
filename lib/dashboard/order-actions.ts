"use server";
// The order wizard's and the order page's writes, each through the action client (session → role
// → zod → handler → typed result) and the typed API client: credentials stay on the server. Pages
// are dynamic and read the order afresh on every render, so no revalidatePath is needed.
import { z } from "zod";
import type { components } from "@/lib/api-client/openapi-types";
import type { ApiClient } from "@/lib/api-client/client";
import { dashboardAction, problemResult, type ActionResult } from "@/lib/dashboard/action-client";
import { changeOrderKey, confirmOrderKey, createOrderKey, payOrderKey, retakeKey } from "./order-idempotency-keys";
import { DraftIdSchema, OrderDraftBodySchema, SaveDraftSchema, type OrderDraftBody } from "@/lib/orders/draft";
import { OrderIdSchema } from "@/lib/orders/order-ids";
import { RetakeRequestSchema } from "@/lib/orders/retake";
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
      access.api.POST("/api/orders/v1/drafts", { params: { header: { "idempotency-key": `dashboard:draft:${requestKey}` } }, body: { body: {}, step: "locations" } }),
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

const PAYABLE = new Set(["pending_confirmation", "payment_failed"]);

/**
 * Places the order a draft stands for and pays it with the card on file: create (Idempotency-Key
 * from the draft id and version), note the order on the draft, confirm (key from the draft id,
 * version and earlier charge attempts). Two clicks, a retried submit or two tabs on the same
 * version send the same keys, so one order is created and charged once.
 */
export const placeOrderFromDraft = dashboardAction({
  least: "editor",
  schema: z.object({ draftId: DraftIdSchema, version: z.number().int().min(1) }),
  handler: async ({ draftId, version }, access): Promise<ActionResult<{ orderId: string; status: string }>> => {
    const { api } = access;
    const draftAnswer = await api.GET("/api/orders/v1/drafts/{id}", { params: { path: { id: draftId } } });
    const draft = draftAnswer.data;
    if (!draft) return problemResult(draftAnswer.response.status, draftAnswer.error);

    let orderId = draft.order_id;
    if (!orderId) {
      if (draft.version !== version) {
        return { ok: false, code: "draft_changed", error: "The draft was changed in another tab since this page was shown. Reload to review it again." };
      }
      const parsed = OrderDraftBodySchema.safeParse(draft.body);
      if (!parsed.success) return { ok: false, code: "draft_unreadable", error: "The saved draft is not a readable order; start a new one." };
      const created = await untilSettled(() =>
        api.POST("/api/orders/v1/orders", {
          params: { header: { "idempotency-key": createOrderKey(draftId, version) } },
          body: toCreateBody(parsed.data as OrderDraftBody) as CreateOrderBody,
        }),
      );
      if (!created.data) return problemResult(created.response.status, created.error);
      orderId = created.data.id;
      // Remember the order on the draft; a concurrent click may have done it already (412).
      await api.PUT("/api/orders/v1/drafts/{id}", {
        params: { path: { id: draftId }, header: { "if-match": `"${version}"` } },
        body: { body: draft.body, step: "review", order_id: orderId },
      });
    }

    const current = await api.GET("/api/orders/v1/orders/{id}", { params: { path: { id: orderId } } });
    if (!current.data) return problemResult(current.response.status, current.error);
    if (!PAYABLE.has(current.data.status)) return { ok: true, data: { orderId, status: current.data.status } };
    const attempts = current.data.payments.filter((p) => p.kind === "charge").length;
    const confirmed = await untilSettled(() =>
      api.POST("/api/orders/v1/orders/{id}/confirm", {
        params: { path: { id: orderId }, header: { "idempotency-key": confirmOrderKey(draftId, version, attempts) } },
        body: { payment_method: "card" },
      }),
    );
    if (!confirmed.data) {
      // The order exists but was not paid: say which, so the page can link to it.
      const failed = problemResult(confirmed.response.status, confirmed.error);
      return { ...failed, code: `order_not_paid:${orderId}:${failed.code}` };
    }
    return { ok: true, data: { orderId, status: confirmed.data.status } };
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
