// The delivery side of the outbox: claims due deliveries (FOR UPDATE SKIP LOCKED, with a lease so
// a delivery in flight when a process dies is retried after its lease runs out), sends each, logs
// the attempt, and schedules the retry or settles the delivery. Every write after the send is
// conditioned on the attempt number this worker claimed, so a worker whose lease expired cannot
// overwrite the outcome of the one that took the delivery over.
import { and, eq, sql } from "drizzle-orm";
import { queryPrepared } from "@/lib/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type SecretFormat } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { ServiceContext } from "@/lib/service/context";
import { executeWebhookCall, type CallResult } from "./execute-webhook-call";
import { GroupCommit } from "./group-commit";
import { DISABLE_AFTER_SECONDS, nextRetryDelayMs } from "./retry-schedule";

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  attempt: number;
  /** The endpoint as it was when the delivery was claimed, read in the claim itself. */
  endpoint: {
    url: string;
    enabled: boolean;
    /** Sealed: the endpoint's secret, or the organisation's order-delivery secret for an order's endpoint (null when it has none). */
    secret: string | null;
    secretFormat: SecretFormat;
    /** Sealed, and only while its grace period lasts. */
    previousSecret: string | null;
    previousSecretFormat: SecretFormat;
  };
}

interface ClaimRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  attempt_count: number;
  url: string;
  enabled: boolean;
  secret: string | null;
  secret_format: SecretFormat | null;
  previous_secret: string | null;
  previous_secret_format: SecretFormat | null;
}

/**
 * Claims up to `limit` due deliveries with everything sending them needs (event type, endpoint URL
 * and state, sealed secrets — the organisation's for an order's endpoint), in one statement.
 */
export async function claimDeliveries(ctx: ServiceContext, { limit = 8, leaseSeconds }: { limit?: number; leaseSeconds: number }): Promise<ClaimedDelivery[]> {
  // Prepared: the worker claims many times a second under load, and PGlite would otherwise parse
  // and plan this statement's text every time on the service's own thread.
  const rows = await queryPrepared<ClaimRow>(
    ctx.db,
    "webhook_claim",
    // Two lookups rather than one with OR: each reads only the rows it returns through the
    // (status, next_attempt_at) index, where the OR made every claim sort all pending rows.
    sql`with expired as (
          select id from webhook_deliveries
          where status = 'delivering' and locked_until < now()
          limit ${limit}
          for update skip locked),
        due as (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
        update webhook_deliveries d
        set status = 'delivering', attempt_count = d.attempt_count + 1, updated_at = now(),
            locked_until = now() + make_interval(secs => ${leaseSeconds})
        from events e, webhook_endpoints w
          left join organisations o on o.id = w.org_id and w.order_id is not null
        where e.id = d.event_id and w.id = d.endpoint_id
          and d.id in (select id from (select id from expired union all select id from due) claimable limit ${limit})
        returning d.id, d.endpoint_id, d.event_id, e.type as event_type, d.payload, d.attempt_count, w.url, w.enabled,
          case when w.order_id is null then w.secret else o.order_delivery_secret end as secret,
          case when w.order_id is null then w.secret_format else o.order_delivery_secret_format end as secret_format,
          case when w.order_id is null
            then case when w.previous_secret_expires_at > now() then w.previous_secret end
            else case when o.previous_order_delivery_secret_expires_at > now() then o.previous_order_delivery_secret end
          end as previous_secret,
          case when w.order_id is null then w.previous_secret_format else o.previous_order_delivery_secret_format end as previous_secret_format`,
  );
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type,
    payload: r.payload,
    attempt: r.attempt_count,
    endpoint: {
      url: r.url,
      enabled: r.enabled,
      secret: r.secret,
      // Null only with no secret to go with it (an order's endpoint whose organisation is gone).
      secretFormat: r.secret_format ?? "legacy",
      previousSecret: r.previous_secret,
      previousSecretFormat: r.previous_secret_format ?? "legacy",
    },
  }));
}

const claimedBy = (d: ClaimedDelivery) =>
  and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.attemptCount, d.attempt), eq(webhookDeliveries.status, "delivering"));

interface Success {
  delivery: ClaimedDelivery;
  startedAt: Date;
  result: CallResult;
  done: Date;
}

/**
 * Successes, settled in one statement per batch (atomic without a transaction): each delivery
 * marked succeeded if this worker still holds it, its attempt logged, and the endpoint's failure
 * streak reset only when there is one — so parallel successes to one endpoint do not queue on its
 * row lock.
 */
async function settleSuccesses(ctx: ServiceContext, batch: Success[]): Promise<void> {
  // The batch as one JSON parameter, so the statement's text is the same for any batch size and
  // runs prepared (PGlite would otherwise parse and plan it for every batch).
  const input = JSON.stringify(
    batch.map(({ delivery, startedAt, result, done }) => ({
      id: delivery.id,
      attempt: delivery.attempt,
      endpoint_id: delivery.endpointId,
      attempt_id: createId("attempt"),
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      snippet: result.snippet,
      started_at: startedAt.toISOString(),
      done_at: done.toISOString(),
    })),
  );
  await queryPrepared(
    ctx.db,
    "webhook_settle",
    sql`with input as (
          select * from jsonb_to_recordset(${input}::jsonb)
            as i(id text, attempt int, endpoint_id text, attempt_id text, status_code int, duration_ms int, snippet text,
                 started_at timestamptz, done_at timestamptz)),
        settled as (
          update webhook_deliveries d
          set status = 'succeeded', locked_until = null, last_status_code = i.status_code, completed_at = i.done_at, updated_at = i.done_at
          from input i
          where d.id = i.id and d.attempt_count = i.attempt and d.status = 'delivering'
          returning d.id),
        logged as (
          insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, response_snippet, error)
          select i.attempt_id, i.id, i.attempt, i.started_at, i.duration_ms, i.status_code, i.snippet, null from input i join settled s on s.id = i.id
          returning id),
        healed as (
          update webhook_endpoints set consecutive_failures = 0, failing_since = null
          where id in (select i.endpoint_id from input i join settled s on s.id = i.id) and (consecutive_failures <> 0 or failing_since is not null)
          returning id)
        select (select count(*) from logged) as logged, (select count(*) from healed) as healed`,
  );
}

/** At most this many successes per statement. */
const SETTLE_BATCH_MAX = 64;
/**
 * Successes are settled by group commit, per service context: on PGlite every statement runs on
 * the service's thread, and a busy worker then writes one statement for many deliveries.
 */
const settlers = new WeakMap<ServiceContext, GroupCommit<Success>>();

function settler(ctx: ServiceContext): GroupCommit<Success> {
  let group = settlers.get(ctx);
  if (!group) {
    group = new GroupCommit((batch) => settleSuccesses(ctx, batch), SETTLE_BATCH_MAX);
    settlers.set(ctx, group);
  }
  return group;
}

export async function processDelivery(ctx: ServiceContext, delivery: ClaimedDelivery): Promise<void> {
  const { db, config } = ctx;
  const now = new Date();
  const { endpoint } = delivery;
  // A disabled endpoint, or an order's endpoint whose organisation has no delivery secret: nothing is sent.
  if ((!endpoint.enabled && delivery.eventType !== "webhook.test") || endpoint.secret === null) {
    await db.update(webhookDeliveries).set({ status: "failed", lockedUntil: null, completedAt: now, updatedAt: now }).where(claimedBy(delivery));
    return;
  }
  const secrets = {
    secret: { value: ctx.secretBox.open(endpoint.secret), format: endpoint.secretFormat },
    previousSecret: endpoint.previousSecret === null ? null : { value: ctx.secretBox.open(endpoint.previousSecret), format: endpoint.previousSecretFormat },
  };
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
  if (ok) return settler(ctx).add({ delivery, startedAt, result, done });

  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookDeliveries)
      .set(
        retryIn === null
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
      error: result.error ?? (result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400 ? "redirects are not followed" : null),
    });
    if (gone) {
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "The endpoint answered 410 Gone.", updatedAt: done })
        .where(eq(webhookEndpoints.id, delivery.endpointId));
      return;
    }
    const [current] = await tx
      .select({ failingSince: webhookEndpoints.failingSince })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, delivery.endpointId))
      .limit(1);
    const failingSince = current?.failingSince ?? done;
    const disable = retryIn === null && done.getTime() - failingSince.getTime() >= DISABLE_AFTER_SECONDS * 1000 * config.webhooks.retryScale;
    await tx
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
        failingSince,
        ...(disable
          ? { enabled: false, disabledReason: "Deliveries kept failing for days; fix the receiver, then enable the endpoint again.", updatedAt: done }
          : {}),
      })
      .where(eq(webhookEndpoints.id, delivery.endpointId));
  });
}
