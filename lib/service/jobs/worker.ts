// A polling worker: claims due work, processes it (claimed items in parallel), and sleeps while
// there is none; `wake()` skips the wait when this process has just committed new work.
import type { ServiceContext } from "@/lib/service/context";
import { log } from "@/lib/log";
import { claimJobs, completeJob, failJob, type Job, type QueueName } from "./queue";

export interface Worker {
  wake(): void;
  stop(): Promise<void>;
}

export function startPollingWorker<T>(name: string, claim: () => Promise<T[]>, processItem: (item: T) => Promise<void>, { pollMs = 500 } = {}): Worker {
  let stopped = false;
  let wakeUp: (() => void) | undefined;

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
      let items: T[] = [];
      try {
        items = await claim();
      } catch (error) {
        if (!stopped) log.error("worker claim failed", { worker: name }, error);
      }
      if (items.length === 0) {
        await sleep();
        continue;
      }
      await Promise.all(items.map((item) => processItem(item).catch((error: unknown) => log.error("worker item failed", { worker: name }, error))));
    }
  })();

  return {
    wake: () => wakeUp?.(),
    stop: async () => {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}

/** A worker over one queue of the jobs table, retrying failed jobs with backoff. */
export function startJobWorker(ctx: ServiceContext, queue: QueueName, handler: (job: Job) => Promise<void>, { pollMs = 500, leaseSeconds = 300 } = {}): Worker {
  return startPollingWorker(
    `jobs:${queue}`,
    () => claimJobs(ctx.db, queue, { limit: 1, leaseSeconds }),
    async (job) => {
      try {
        await handler(job);
        await completeJob(ctx.db, job.id);
      } catch (error) {
        log.error("job failed", { queue, job_id: job.id, attempt: job.attempts }, error);
        await failJob(ctx.db, job, error);
      }
    },
    { pollMs },
  );
}
