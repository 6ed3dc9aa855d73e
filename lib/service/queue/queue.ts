// A durable job queue in the database (works on PGlite and PostgreSQL alike). Jobs are enqueued in
// the caller's transaction, claimed with FOR UPDATE SKIP LOCKED so concurrent workers never take
// the same job, and re-claimed after their lease expires if a worker died mid-job.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { describeError } from "@/lib/log";

export type QueueName = "qa" | "webhooks" | "orders";

/**
 * What a job of each queue carries, checked where it is enqueued. The worker's handlers read the
 * stored JSON back as unknown and check it again (a row may predate a change of these types).
 */
export interface JobPayloads {
  /** Run QA on a received submission (lib/service/qa/run-qa.ts). */
  qa: { submission_id: string };
  /** Webhook deliveries keep their own table; nothing is enqueued here today. */
  webhooks: Record<string, never>;
  /** Verify an order's photo, deliver a location, or dispatch a recurring order's cycle (lib/service/orders/order-jobs.ts). */
  orders: { kind: "verify"; submission_id: string } | { kind: "deliver"; mission_id: string } | { kind?: "cycle"; order_id: string; cycle_index: number };
}

export interface Job {
  id: string;
  queue: QueueName;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
}

export async function enqueueJob<Q extends QueueName>(
  tx: Db,
  queue: Q,
  payload: JobPayloads[Q],
  options: { runAt?: Date; maxAttempts?: number } = {},
): Promise<string> {
  const id = createId("job");
  await tx.insert(jobs).values({ id, queue, payload, runAt: options.runAt ?? new Date(), maxAttempts: options.maxAttempts ?? 5 });
  return id;
}

/** Takes up to `limit` due jobs of a queue for `leaseSeconds`. */
export async function claimJobs(db: Db, queue: QueueName, { limit = 1, leaseSeconds = 120 } = {}): Promise<Job[]> {
  const rows = await queryRows<{ id: string; queue: QueueName; payload: Record<string, unknown>; attempts: number; max_attempts: number }>(
    db,
    sql`update jobs set status = 'running', attempts = attempts + 1, updated_at = now(),
               locked_until = now() + make_interval(secs => ${leaseSeconds})
        where id in (
          select id from jobs
          where queue = ${queue}
            and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
          order by run_at
          limit ${limit}
          for update skip locked)
        returning id, queue, payload, attempts, max_attempts`,
  );
  return rows.map((r) => ({ id: r.id, queue: r.queue, payload: r.payload, attempts: r.attempts, maxAttempts: r.max_attempts }));
}

export async function completeJob(db: Db, id: string): Promise<void> {
  await db.execute(sql`update jobs set status = 'succeeded', locked_until = null, updated_at = now() where id = ${id}`);
}

/** Retries with exponential backoff until maxAttempts, then marks the job failed. */
export async function failJob(db: Db, job: Job, error: unknown): Promise<void> {
  // Kept in the jobs table for operators: the same redacted summary the log gets, never a
  // failed query's parameters.
  const summary = describeError(error);
  const message = `${summary.name}${summary.code ? ` ${summary.code}` : ""}: ${summary.message}${summary.cause ? ` (${summary.cause.name}${summary.cause.code ? ` ${summary.cause.code}` : ""}: ${summary.cause.message})` : ""}`;
  const finalAttempt = job.attempts >= job.maxAttempts;
  const delaySeconds = Math.min(3600, 2 ** job.attempts * 5);
  await db.execute(sql`update jobs
      set status = ${finalAttempt ? "failed" : "queued"}, last_error = ${message.slice(0, 2000)}, locked_until = null,
          run_at = now() + make_interval(secs => ${delaySeconds}), updated_at = now()
      where id = ${job.id}`);
}
