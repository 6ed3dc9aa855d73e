// In-process background work for the one-process default (and for `npm run worker` processes when
// scaled out): periodic housekeeping now; the job and webhook workers join here.
import type { ServiceContext } from "@/lib/service/context";
import { pruneCounters } from "@/lib/service/rate-limit/consume";

export interface BackgroundWork {
  stop(): Promise<void>;
}

export function startBackgroundWork(ctx: ServiceContext, { housekeepingMs = 5 * 60_000 } = {}): BackgroundWork {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = pruneCounters(ctx.db).catch((error: unknown) => console.error("[worker] housekeeping failed", error));
  }, housekeepingMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
