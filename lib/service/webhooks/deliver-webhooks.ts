// The delivery side of the outbox: claims due deliveries (FOR UPDATE SKIP LOCKED, with a lease so
// a delivery in flight when a process dies is retried after its lease runs out), sends each, logs
// the attempt, and schedules the retry or settles the delivery. Every write after the send is
// conditioned on the attempt number this worker claimed, so a worker whose lease expired cannot
// overwrite the outcome of the one that took the delivery over.
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { orderDeliverySecrets } from "@/lib/service/orders/delivery-secret";
import { executeWebhookCall, type CallResult } from "./execute-webhook-call";
import { DISABLE_AFTER_SECONDS, nextRetryDelayMs } from "./retry-schedule";

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  attempt: number;
}

export async function claimDeliveries(ctx: ServiceContext, { limit = 8, leaseSeconds }: { limit?: number; leaseSeconds: number }): Promise<ClaimedDelivery[]> {
  const rows = await queryRows<{ id: string; endpoint_id: string; event_id: string; event_type: string; payload: string; attempt_count: number }>(
    ctx.db,
    sql`update webhook_deliveries d
        set status = 'delivering', attempt_count = d.attempt_count + 1, updated_at = now(),
            locked_until = now() + make_interval(secs => ${leaseSeconds})
        from events e
        where e.id = d.event_id and d.id in (
          select id from webhook_deliveries
          where (status = 'pending' and next_attempt_at <= now()) or (status = 'delivering' and locked_until < now())
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
        returning d.id, d.endpoint_id, d.event_id, e.type as event_type, d.payload, d.attempt_count`,
  );
  return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, eventId: r.event_id, eventType: r.event_type, payload: r.payload, attempt: r.attempt_count }));
}

/** The endpoint's secrets, unsealed: the current one, and the previous one during its grace period. */
function endpointSecrets(ctx: ServiceContext, endpoint: typeof webhookEndpoints.$inferSelect, now: Date) {
  const previousSecret = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? endpoint.previousSecret : null;
  return { secret: ctx.secretBox.open(endpoint.secret), previousSecret: previousSecret === null ? null : ctx.secretBox.open(previousSecret) };
}

const claimedBy = (d: ClaimedDelivery) => and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.attemptCount, d.attempt), eq(webhookDeliveries.status, "delivering"));

export async function processDelivery(ctx: ServiceContext, delivery: ClaimedDelivery): Promise<void> {
  const { db, config } = ctx;
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).limit(1);
  const now = new Date();
  if (!endpoint || (!endpoint.enabled && delivery.eventType !== "webhook.test")) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lockedUntil: null, completedAt: now, updatedAt: now })
      .where(claimedBy(delivery));
    return;
  }

  const secrets = endpoint.orderId ? await orderDeliverySecrets(ctx, endpoint.orgId, now) : endpointSecrets(ctx, endpoint, now);
  if (!secrets) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lockedUntil: null, completedAt: now, updatedAt: now })
      .where(claimedBy(delivery));
    return;
  }
  const startedAt = new Date();
  const result: CallResult = await executeWebhookCall(
    {
      url: endpoint.url,
      payload: delivery.payload,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      secret: secrets.secret,
      previousSecret: secrets.previousSecret,
    },
    { timeoutMs: config.webhooks.timeoutMs, allowPrivate: config.webhooks.allowPrivateTargets },
  );

  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retryIn = ok || gone ? null : nextRetryDelayMs(delivery.attempt, { scale: config.webhooks.retryScale });
  const done = new Date();

  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookDeliveries)
      .set(
        ok
          ? { status: "succeeded", lockedUntil: null, lastStatusCode: result.statusCode, completedAt: done, updatedAt: done }
          : retryIn === null
            ? { status: "failed", lockedUntil: null, lastStatusCode: result.statusCode, completedAt: done, updatedAt: done }
            : { status: "pending", lockedUntil: null, lastStatusCode: result.statusCode, nextAttemptAt: new Date(done.getTime() + retryIn), updatedAt: done },
      )
      .where(claimedBy(delivery))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return; // the lease ran out and another worker took over: its outcome stands
    await tx.insert(webhookAttempts).values({
      id: createId("attempt"),
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      responseSnippet: result.snippet,
      error: result.error ?? (ok ? null : result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400 ? "redirects are not followed" : null),
    });
    if (ok) {
      await tx.update(webhookEndpoints).set({ consecutiveFailures: 0, failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    if (gone) {
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "The endpoint answered 410 Gone.", updatedAt: done })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    const failingSince = endpoint.failingSince ?? done;
    const disable = retryIn === null && done.getTime() - failingSince.getTime() >= DISABLE_AFTER_SECONDS * 1000 * config.webhooks.retryScale;
    await tx
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
        failingSince,
        ...(disable ? { enabled: false, disabledReason: "Deliveries kept failing for days; fix the receiver, then enable the endpoint again.", updatedAt: done } : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
  });
}
