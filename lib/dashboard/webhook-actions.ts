"use server";
// The webhooks page's writes. Administrators only (the API checks webhooks:manage again). The
// page reads through React Query and invalidates its own queries after each of these, so no
// revalidatePath: re-rendering the server page would only refetch what the client ignores.
import { z } from "zod";
import { CreateWebhookSchema } from "@/lib/schemas/webhook";
import { dashboardAction, problemResult } from "@/lib/dashboard/action-client";

const Id = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "Not an id.");

// POST /api/v1/webhooks — the signing secret comes back once, for the reveal box only.
export const createWebhook = dashboardAction({
  least: "admin",
  schema: CreateWebhookSchema,
  handler: async (input, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/webhooks", { body: input });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { id: data.id, url: data.url, secret: data.secret } };
  },
});

// PATCH /api/v1/webhooks/{id} — enable or disable; enabling clears the failure streak.
export const setWebhookEnabled = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id, enabled: z.boolean() }),
  handler: async ({ id, enabled }, access) => {
    const { data, error, response } = await access.api.PATCH("/api/v1/webhooks/{id}", { params: { path: { id } }, body: { enabled } });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { id: data.id, enabled: data.enabled } };
  },
});

// DELETE /api/v1/webhooks/{id} — pending deliveries to it are dropped.
export const deleteWebhook = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id }),
  handler: async ({ id }, access) => {
    const { error, response } = await access.api.DELETE("/api/v1/webhooks/{id}", { params: { path: { id } } });
    if (!response.ok) return problemResult(response.status, error);
    return { ok: true, data: { id } };
  },
});

// POST /api/v1/webhooks/{id}/rotate-secret — the new secret once, and until when the old one still signs.
export const rotateWebhookSecret = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id }),
  handler: async ({ id }, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id } } });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { id: data.id, secret: data.secret, previousSecretExpiresAt: data.previous_secret_expires_at } };
  },
});

// POST /api/v1/webhooks/{id}/test — queues webhook.test; the page follows it in the delivery log.
export const sendTestEvent = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id }),
  handler: async ({ id }, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id } } });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { deliveryId: data.id } };
  },
});

// POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver — same event id, same body.
export const redeliverDelivery = dashboardAction({
  least: "admin",
  schema: z.object({ id: Id, deliveryId: Id }),
  handler: async ({ id, deliveryId }, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", {
      params: { path: { id, delivery_id: deliveryId } },
    });
    if (!data) return problemResult(response.status, error);
    return { ok: true, data: { deliveryId: data.id } };
  },
});
