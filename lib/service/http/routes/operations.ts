// Operational endpoints for load balancers and monitoring (not part of the partner API, so not in
// the OpenAPI documents; described in docs/operations.md): readiness with figures, and Prometheus metrics.
import { timingSafeEqual } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { HEARTBEAT_STALE_SECONDS, readBacklog, readWorkerHeartbeats } from "@/lib/service/queue/heartbeat";
import type { ServiceMetrics } from "@/lib/service/metrics/service-metrics";
import { ApiError } from "@/lib/service/errors";
import type { AppEnv } from "../types";

/** A backlog older than this marks the deployment degraded (work is waiting on workers). */
export const BACKLOG_DEGRADED_SECONDS = 300;

/** A probe that has not answered by then counts as failed: a load balancer's check must not hang. */
export const PROBE_TIMEOUT_MS = 3_000;

async function timed<T>(work: () => Promise<T>): Promise<{ ok: true; value: T; ms: number } | { ok: false; ms: number; error: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), PROBE_TIMEOUT_MS);
    });
    const value = await Promise.race([work(), deadline]);
    return { ok: true, value, ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { ok: false, ms: Math.round((performance.now() - started) * 10) / 10, error: error instanceof Error ? error.name : "error" };
  } finally {
    clearTimeout(timer);
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerOperationRoutes(app: OpenAPIHono<AppEnv>, metrics: ServiceMetrics) {
  // GET /api/ready – readiness: database and storage answer (else 503), plus worker and backlog figures
  app.get("/api/ready", async (c) => {
    const { ctx } = c.var;
    const [database, storage] = await Promise.all([timed(() => ctx.db.execute(sql`select 1`)), timed(() => ctx.store.ping())]);
    const [workers, backlog] = database.ok ? await Promise.all([timed(() => readWorkerHeartbeats(ctx.db)), timed(() => readBacklog(ctx.db))]) : [null, null];
    const workerFigures = workers?.ok ? workers.value : null;
    const backlogFigures = backlog?.ok ? backlog.value : null;
    const oldest = backlogFigures
      ? Math.max(backlogFigures.deliveries.oldest_seconds, ...Object.values(backlogFigures.jobs).map((j) => j.oldest_seconds))
      : null;
    const workerOk = (workerFigures?.alive ?? 0) > 0;
    const backlogOk = oldest !== null && oldest < BACKLOG_DEGRADED_SECONDS;
    // Only what this instance needs to serve requests decides the status code: a load balancer
    // must not take every web instance out because the workers are down. Workers and backlog make
    // the answer "degraded" for monitoring.
    const serving = database.ok && storage.ok;
    const status = !serving ? "unavailable" : workerOk && backlogOk ? "ready" : "degraded";
    return c.json(
      {
        status,
        checks: {
          database: { ok: database.ok, kind: ctx.dbKind, latency_ms: database.ms },
          storage: { ok: storage.ok, kind: ctx.store.kind, latency_ms: storage.ms },
          workers: {
            ok: workerOk,
            alive: workerFigures?.alive ?? 0,
            last_seen_seconds: workerFigures?.last_seen_seconds ?? null,
            stale_after_seconds: HEARTBEAT_STALE_SECONDS,
          },
          backlog: {
            ok: backlogOk,
            oldest_due_seconds: oldest,
            degraded_after_seconds: BACKLOG_DEGRADED_SECONDS,
            jobs: backlogFigures?.jobs ?? null,
            deliveries: backlogFigures?.deliveries ?? null,
          },
        },
      },
      serving ? 200 : 503,
    );
  });

  // GET /api/metrics – Prometheus text format; needs METRICS_TOKEN as a bearer token
  app.get("/api/metrics", async (c) => {
    const expected = c.var.ctx.config.metricsToken;
    if (!expected) throw new ApiError(404, "metrics_disabled", "Metrics are off: set METRICS_TOKEN to serve them.");
    const given = /^Bearer (.+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!sameToken(given, expected)) {
      throw new ApiError(401, "invalid_token", "Send METRICS_TOKEN as a bearer token.", { headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } });
    }
    const body = await metrics.registry.metrics();
    return c.body(body, 200, { "Content-Type": metrics.registry.contentType });
  });
}
