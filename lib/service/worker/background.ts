// In-process background work for the one-process default (and for `npm run worker` processes when
// scaled out): the QA worker, the webhook delivery worker and periodic housekeeping.
import type { ServiceContext } from "@/lib/service/context";
import { log } from "@/lib/log";
import { runOrderJob } from "@/lib/service/orders/order-jobs";
import { runQa } from "@/lib/service/qa/run-qa";
import { claimDeliveries, processDelivery } from "@/lib/service/webhooks/deliver-webhooks";
import { startHeartbeat } from "@/lib/service/queue/heartbeat";
import { housekeeping as tidy } from "./housekeeping";
import { startJobWorker, startPollingWorker, type Worker } from "./worker";

export interface BackgroundWork {
  workers: { qa: Worker; webhooks: Worker; orders: Worker };
  stop(): Promise<void>;
}

export interface BackgroundOptions {
  housekeepingMs?: number;
  pollMs?: number;
  /** Called when the heartbeat has failed for about a minute (the database is gone): a worker process exits. */
  onHeartbeatLost?: (error: unknown) => void;
}

export function startBackgroundWork(ctx: ServiceContext, { housekeepingMs = 60_000, pollMs = 500, onHeartbeatLost }: BackgroundOptions = {}): BackgroundWork {
  const heartbeat = startHeartbeat(ctx.db, { onLost: onHeartbeatLost });
  void heartbeat.beat().catch((error: unknown) => log.warn("first worker heartbeat failed", { error: error instanceof Error ? error.message : String(error) }));
  const qa = startJobWorker(
    ctx,
    "qa",
    async (job) => {
      const submissionId = job.payload.submission_id;
      if (typeof submissionId !== "string") throw new Error("qa job without submission_id");
      await runQa(ctx, submissionId);
      ctx.wakeWorkers("webhooks", "orders"); // the verdict's events, and an order photo's verification, are waiting
    },
    { pollMs },
  );
  // Longer than one call can take (its timeout) plus recording it, so a live worker keeps its claim.
  const leaseSeconds = Math.ceil((2 * ctx.config.webhooks.timeoutMs) / 1000) + 2;
  const webhooks = startPollingWorker(
    "webhooks",
    (limit) => claimDeliveries(ctx, { limit, leaseSeconds }),
    (delivery) => processDelivery(ctx, delivery),
    { pollMs, concurrency: 8 },
  );
  // Order work: recurring cycles (one job per order for its next cycle, due at dispatch time),
  // verification of a photo after its QA, and delivery of a location's verified set.
  const orders = startJobWorker(ctx, "orders", (job) => runOrderJob(ctx, job.payload), { pollMs });
  let housekeeping: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    housekeeping = tidy(ctx).catch((error: unknown) => log.error("housekeeping failed", {}, error));
  }, housekeepingMs);
  timer.unref();
  return {
    workers: { qa, webhooks, orders },
    stop: async () => {
      clearInterval(timer);
      await Promise.all([qa.stop(), webhooks.stop(), orders.stop()]);
      await housekeeping;
      await heartbeat.stop();
    },
  };
}
