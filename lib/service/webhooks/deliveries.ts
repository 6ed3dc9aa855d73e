// The delivery log an integrator sees: each delivery with every attempt, a test event, and
// redelivery of one delivery.
import { pageTotal } from "@/lib/db/page-total";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { events, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import type { Delivery } from "@/lib/schemas/webhook";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { parseStatusFilter } from "@/lib/service/query-filters";
import { getWebhookRow, type EndpointScope } from "./endpoints";
import { isoOrNull } from "@/lib/service/iso-or-null";

const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"] as const;

async function withAttempts(ctx: ServiceContext, rows: (typeof webhookDeliveries.$inferSelect & { eventType: string })[]): Promise<Delivery[]> {
  if (rows.length === 0) return [];
  const attempts = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(
      inArray(
        webhookAttempts.deliveryId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.startedAt));
  return rows.map((row) => ({
    id: row.id,
    webhook_id: row.endpointId,
    event_id: row.eventId,
    event: row.eventType,
    status: row.status,
    attempt_count: row.attemptCount,
    next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    last_status_code: row.lastStatusCode,
    created_at: row.createdAt.toISOString(),
    completed_at: isoOrNull(row.completedAt),
    attempts: attempts
      .filter((a) => a.deliveryId === row.id)
      .map((a) => ({
        id: a.id,
        attempt: a.attempt,
        started_at: a.startedAt.toISOString(),
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        response_snippet: a.responseSnippet,
        error: a.error,
      })),
  }));
}

function deliveryQuery(ctx: ServiceContext) {
  return ctx.db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId));
}

export async function listDeliveries(
  ctx: ServiceContext,
  orgId: string,
  webhookId: string,
  options: { status?: string; page: number; perPage: number },
  scope: EndpointScope = "webhook",
) {
  await getWebhookRow(ctx, orgId, webhookId, scope);
  const statuses = parseStatusFilter(options.status, DELIVERY_STATUSES, null);
  const condition = and(
    eq(webhookDeliveries.endpointId, webhookId),
    eq(webhookDeliveries.orgId, orgId),
    statuses ? inArray(webhookDeliveries.status, statuses) : undefined,
  );
  const rows = await deliveryQuery(ctx)
    .where(condition)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage);
  const total = await pageTotal(
    rows.length,
    options,
    async () => (await ctx.db.select({ total: count() }).from(webhookDeliveries).where(condition))[0]?.total ?? 0,
  );
  return {
    data: await withAttempts(
      ctx,
      rows.map((r) => ({ ...r.delivery, eventType: r.eventType })),
    ),
    meta: { total, page: options.page, per_page: options.perPage },
  };
}

export async function getDelivery(ctx: ServiceContext, orgId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
  const [row] = await deliveryQuery(ctx)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, webhookId), eq(webhookDeliveries.orgId, orgId)))
    .limit(1);
  if (!row) throw notFound("delivery");
  const [delivery] = await withAttempts(ctx, [{ ...row.delivery, eventType: row.eventType }]);
  if (!delivery) throw notFound("delivery");
  return delivery;
}

/** Sends `webhook.test` to this endpoint now, whatever it subscribes to. */
export async function sendTestEvent(ctx: ServiceContext, orgId: string, webhookId: string): Promise<Delivery> {
  const endpoint = await getWebhookRow(ctx, orgId, webhookId);
  const { deliveryIds } = await ctx.db.transaction((tx) =>
    recordEvent(tx, {
      orgId,
      type: "webhook.test",
      data: { webhook_id: endpoint.id, message: "A test event from Photo Missions. Verify its signature as you would any other." },
      onlyEndpointId: endpoint.id,
    }),
  );
  ctx.wakeWorkers("webhooks");
  return getDelivery(ctx, orgId, webhookId, deliveryIds[0] ?? "");
}

/** Queues one more attempt of a settled delivery, with the same event id and body. */
export async function redeliver(
  ctx: ServiceContext,
  orgId: string,
  webhookId: string,
  deliveryId: string,
  scope: EndpointScope = "webhook",
): Promise<Delivery> {
  const endpoint = await getWebhookRow(ctx, orgId, webhookId, scope);
  if (!endpoint.enabled) throw new ApiError(409, "webhook_disabled", "The endpoint is disabled; enable it before redelivering.");
  const current = await getDelivery(ctx, orgId, webhookId, deliveryId);
  if (current.status === "pending" || current.status === "delivering") {
    throw new ApiError(409, "delivery_in_progress", "This delivery is still being attempted; wait for it to succeed or fail.");
  }
  await ctx.db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: new Date(), completedAt: null, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, deliveryId), inArray(webhookDeliveries.status, ["succeeded", "failed"])));
  ctx.wakeWorkers("webhooks");
  return getDelivery(ctx, orgId, webhookId, deliveryId);
}
