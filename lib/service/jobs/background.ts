// In-process background work for the one-process default (and for `npm run worker` processes when
// scaled out): the QA worker and periodic housekeeping.
import type { ServiceContext } from "@/lib/service/context";
import { runQa } from "@/lib/service/qa/run-qa";
import { pruneCounters } from "@/lib/service/rate-limit/consume";
import { startJobWorker, type JobWorker } from "./worker";

export interface BackgroundWork {
  workers: { qa: JobWorker };
  stop(): Promise<void>;
}

export function startBackgroundWork(ctx: ServiceContext, { housekeepingMs = 5 * 60_000, pollMs = 500 } = {}): BackgroundWork {
  const qa = startJobWorker(
    ctx,
    "qa",
    async (job) => {
      const submissionId = job.payload.submission_id;
      if (typeof submissionId !== "string") throw new Error("qa job without submission_id");
      await runQa(ctx, submissionId);
    },
    { pollMs },
  );
  let housekeeping: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    housekeeping = pruneCounters(ctx.db).catch((error: unknown) => console.error("[worker] housekeeping failed", error));
  }, housekeepingMs);
  timer.unref();
  return {
    workers: { qa },
    stop: async () => {
      clearInterval(timer);
      await qa.stop();
      await housekeeping;
    },
  };
}
