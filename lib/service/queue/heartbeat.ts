// Worker liveness, shared through the database: every process that runs background work stamps a
// row every few seconds, so a readiness probe on any instance can tell whether some worker is
// alive. The rows live in the jobs table under a queue no worker claims (no schema change; a row
// of a process that died is pruned with other finished jobs after a day).
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { createId } from "@/lib/ids/create-id";
import { log } from "@/lib/log";

export const HEARTBEAT_QUEUE = "worker-heartbeat";
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** A worker not heard from for this long counts as gone. */
export const HEARTBEAT_STALE_SECONDS = 45;

export interface Heartbeat {
  /** Stamps once now (awaitable: a worker refuses to start when it cannot). */
  beat(): Promise<void>;
  stop(): Promise<void>;
}

export function startHeartbeat(db: Db, options: { intervalMs?: number; maxFailures?: number; onLost?: (error: unknown) => void } = {}): Heartbeat {
  const { intervalMs = HEARTBEAT_INTERVAL_MS, maxFailures = 6, onLost } = options;
  const id = createId("job");
  const payload = JSON.stringify({ host: hostname(), pid: process.pid, started_at: new Date().toISOString() });
  let failures = 0;
  const beat = async () => {
    await db.execute(sql`insert into jobs (id, queue, payload, status, run_at, updated_at)
                         values (${id}, ${HEARTBEAT_QUEUE}, ${payload}::jsonb, 'succeeded', now(), now())
                         on conflict (id) do update set updated_at = now()`);
  };
  const timer = setInterval(() => {
    beat().then(
      () => {
        failures = 0;
      },
      (error: unknown) => {
        failures++;
        log.warn("worker heartbeat failed", { failures });
        if (failures >= maxFailures) onLost?.(error);
      },
    );
  }, intervalMs);
  timer.unref();
  return {
    beat,
    stop: async () => {
      clearInterval(timer);
      await db.execute(sql`delete from jobs where id = ${id}`).catch(() => undefined);
    },
  };
}

export interface WorkerFigures {
  /** Processes that stamped within HEARTBEAT_STALE_SECONDS. */
  alive: number;
  /** Seconds since the latest stamp of any worker (null: never seen). */
  last_seen_seconds: number | null;
}

export async function readWorkerHeartbeats(db: Db): Promise<WorkerFigures> {
  const [row] = await queryRows<{ alive: number | string; age: number | string | null }>(
    db,
    sql`select count(*) filter (where updated_at > now() - make_interval(secs => ${HEARTBEAT_STALE_SECONDS})) as alive,
               extract(epoch from now() - max(updated_at)) as age
        from jobs where queue = ${HEARTBEAT_QUEUE}`,
  );
  return { alive: Number(row?.alive ?? 0), last_seen_seconds: row?.age === null || row?.age === undefined ? null : Math.round(Number(row.age) * 10) / 10 };
}

export interface BacklogFigures {
  /** Due jobs waiting per queue, and the age in seconds of the oldest. */
  jobs: Record<string, { due: number; oldest_seconds: number }>;
  /** Webhook deliveries due and waiting, and the oldest's age. */
  deliveries: { due: number; oldest_seconds: number };
}

export async function readBacklog(db: Db): Promise<BacklogFigures> {
  const jobRows = await queryRows<{ queue: string; due: number | string; age: number | string | null }>(
    db,
    sql`select queue, count(*) as due, extract(epoch from now() - min(run_at)) as age
        from jobs where status = 'queued' and run_at <= now() and queue <> ${HEARTBEAT_QUEUE}
        group by queue`,
  );
  const [delivery] = await queryRows<{ due: number | string; age: number | string | null }>(
    db,
    sql`select count(*) as due, extract(epoch from now() - min(next_attempt_at)) as age
        from webhook_deliveries where status = 'pending' and next_attempt_at <= now()`,
  );
  const jobs: BacklogFigures["jobs"] = {};
  for (const r of jobRows) jobs[r.queue] = { due: Number(r.due), oldest_seconds: Math.max(0, Math.round(Number(r.age ?? 0))) };
  return { jobs, deliveries: { due: Number(delivery?.due ?? 0), oldest_seconds: Math.max(0, Math.round(Number(delivery?.age ?? 0))) } };
}
