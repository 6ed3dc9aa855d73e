// A polling worker: claims due work, processes it (claimed items in parallel), and sleeps while
// there is none; `wake()` skips the wait when this process has just committed new work.
import type { ServiceContext } from "@/lib/service/context";
import { log } from "@/lib/log";
import { claimJobs, completeJob, failJob, type Job, type QueueName } from "@/lib/service/queue/queue";

export interface Worker {
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Keeps up to `concurrency` items in flight: a slot that frees is refilled at once while the last
 * claim found work (so one slow item never holds up the rest), and the worker sleeps until woken or
 * `pollMs` passes once a claim comes back short (nothing more is due).
 */
export function startPollingWorker<T>(
  name: string,
  claim: (limit: number) => Promise<T[]>,
  processItem: (item: T) => Promise<void>,
  { pollMs = 500, concurrency = 1 }: { pollMs?: number; concurrency?: number } = {},
): Worker {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let slotFreed: (() => void) | undefined;
  /** A wake() that came while the loop was not paused (mid-claim): the next pause is skipped. */
  let wokenMeanwhile = false;
  const inFlight = new Set<Promise<void>>();

  /** Resolves on wake(), on stop(), after `ms` when given, and when a slot frees if `onSlot`. */
  const pause = (ms: number | null, onSlot: boolean) =>
    new Promise<void>((resolve) => {
      // The timer ends the pause like a wake-up does, so no stale wake-up outlives it.
      const timer = ms === null ? undefined : setTimeout(() => done(), ms);
      const done = () => {
        clearTimeout(timer);
        wakeUp = undefined;
        slotFreed = undefined;
        resolve();
      };
      wakeUp = done;
      if (onSlot) slotFreed = done;
    });

  const loop = (async () => {
    while (!stopped) {
      const free = concurrency - inFlight.size;
      if (free <= 0) {
        await pause(null, true);
        // Slots free together (a batch of outcomes settled at once): let the others free theirs
        // in this turn too, and fill them with one claim instead of one claim per slot.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      let items: T[] = [];
      wokenMeanwhile = false;
      try {
        items = await claim(free);
      } catch (error) {
        if (!stopped) log.error("worker claim failed", { worker: name }, error);
      }
      for (const item of items) {
        const running: Promise<void> = processItem(item)
          .catch((error: unknown) => log.error("worker item failed", { worker: name }, error))
          .finally(() => {
            inFlight.delete(running);
            slotFreed?.();
          });
        inFlight.add(running);
      }
      // A full claim means more may be due: refill as soon as a slot frees. A short one means the
      // queue is drained for now: wait for a wake-up or the next poll.
      if (items.length < free && !stopped) {
        // Woken while claiming: claim again, but after the event loop has had a turn — on PGlite a
        // claim runs on this thread, and claiming back to back on every commit's wake-up would
        // hold up the responses and settles of the deliveries already in flight.
        if (wokenMeanwhile) await new Promise<void>((resolve) => setImmediate(resolve));
        else await pause(pollMs, false);
      }
    }
    await Promise.all(inFlight);
  })();

  const wake = () => {
    if (wakeUp) wakeUp();
    else wokenMeanwhile = true;
  };
  return {
    wake,
    stop: async () => {
      stopped = true;
      wake(); // also when stopped mid-claim: the loop must not start a poll-long pause after it
      await loop;
    },
  };
}

/** A worker over one queue of the jobs table, retrying failed jobs with backoff. */
export function startJobWorker(ctx: ServiceContext, queue: QueueName, handler: (job: Job) => Promise<void>, { pollMs = 500, leaseSeconds = 300 } = {}): Worker {
  return startPollingWorker(
    `jobs:${queue}`,
    (limit) => claimJobs(ctx.db, queue, { limit, leaseSeconds }),
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
