// Prometheus metrics of one service process (prom-client): HTTP requests and latencies by route
// pattern, process figures, and — read from the database at scrape time, so any instance reports
// the whole deployment's state — job queue depth and age, webhook deliveries by outcome, live workers.
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { queryRows, type Db } from "@/lib/db/client";
import { readBacklog, readWorkerHeartbeats } from "@/lib/service/queue/heartbeat";
import { RequestDurations } from "./request-durations";

export interface ServiceMetrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export function createServiceMetrics(db: Db): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "photo_missions_" });
  const requests = new RequestDurations({
    name: "photo_missions_http_request_duration_seconds",
    help: "HTTP requests served by the REST service, by method, route pattern and status (count = requests).",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Assigned below, once the gauges it fills exist; called only at scrape time.
  let refresh: () => Promise<void> = async () => {};
  const queueDepth = new Gauge({
    name: "photo_missions_jobs_due",
    help: "Jobs due and waiting, per queue.",
    labelNames: ["queue"] as const,
    registers: [registry],
    collect: () => refresh(),
  });
  const queueAge = new Gauge({
    name: "photo_missions_jobs_oldest_due_seconds",
    help: "Age of the oldest due job, per queue.",
    labelNames: ["queue"] as const,
    registers: [registry],
    collect: () => refresh(),
  });
  const deliveries = new Gauge({
    name: "photo_missions_webhook_deliveries",
    help: "Webhook deliveries by outcome (pending, delivering, succeeded, failed), whole deployment.",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect: () => refresh(),
  });
  const deliveryAge = new Gauge({
    name: "photo_missions_webhook_deliveries_oldest_due_seconds",
    help: "Age of the oldest due webhook delivery.",
    registers: [registry],
    collect: () => refresh(),
  });
  const workers = new Gauge({
    name: "photo_missions_workers_alive",
    help: "Processes running background work that stamped their heartbeat recently.",
    registers: [registry],
    collect: () => refresh(),
  });

  // One database read per scrape, shared by the gauges (prom-client calls each collect()).
  let pending: Promise<void> | null = null;
  refresh = () =>
    (pending ??= (async () => {
      try {
        const [backlog, heartbeats, byStatus] = await Promise.all([
          readBacklog(db),
          readWorkerHeartbeats(db),
          queryRows<{ status: string; n: number | string }>(db, sql`select status, count(*) as n from webhook_deliveries group by status`),
        ]);
        queueDepth.reset();
        queueAge.reset();
        for (const queue of ["qa", "webhooks", "orders"]) {
          queueDepth.set({ queue }, backlog.jobs[queue]?.due ?? 0);
          queueAge.set({ queue }, backlog.jobs[queue]?.oldest_seconds ?? 0);
        }
        deliveries.reset();
        for (const outcome of ["pending", "delivering", "succeeded", "failed"])
          deliveries.set({ outcome }, Number(byStatus.find((r) => r.status === outcome)?.n ?? 0));
        deliveryAge.set(backlog.deliveries.oldest_seconds);
        workers.set(heartbeats.alive);
      } finally {
        setTimeout(() => (pending = null), 0);
      }
    })());

  return {
    registry,
    observeRequest: (method, route, status, seconds) => requests.record(method, route, status, seconds),
  };
}
