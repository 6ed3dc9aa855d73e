// Runs the handler of one queue: claims due jobs, runs them, retries failures with backoff. Polls
// while idle; `wake()` skips the wait when this process has just enqueued something.
import type { ServiceContext } from "@/lib/service/context";
import { claimJobs, completeJob, failJob, type Job, type QueueName } from "./queue";

export interface JobWorker {
  wake(): void;
  stop(): Promise<void>;
  /** Resolves when no job is due (tests and the demo seeder wait on this). */
  drain(): Promise<void>;
}

export function startJobWorker(
  ctx: ServiceContext,
  queue: QueueName,
  handler: (job: Job) => Promise<void>,
  { pollMs = 500, leaseSeconds = 300 } = {},
): JobWorker {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    while (!stopped) {
      let job: Job | undefined;
      try {
        [job] = await claimJobs(ctx.db, queue, { limit: 1, leaseSeconds });
      } catch (error) {
        if (!stopped) console.error(`[worker:${queue}] claim failed`, error);
      }
      if (!job) {
        for (const resolve of idleWaiters) resolve();
        idleWaiters = [];
        await sleep();
        continue;
      }
      try {
        await handler(job);
        await completeJob(ctx.db, job.id);
      } catch (error) {
        console.error(`[worker:${queue}] job ${job.id} failed (attempt ${job.attempts})`, error);
        await failJob(ctx.db, job, error).catch(() => undefined);
      }
    }
  })();

  return {
    wake: () => wakeUp?.(),
    drain: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wakeUp?.();
      }),
    stop: async () => {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}
