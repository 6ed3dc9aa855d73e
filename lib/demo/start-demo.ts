// Starts the demo inside the service process (embedded default, DEMO on): seeds it once, runs the
// simulator through the service's own HTTP app, nudges the simulator when someone who belongs to
// the demo organisation signs in to the dashboard (the service tells it in-process: the dashboard
// never reaches the simulator or the database), and sweeps demo data past its retention.
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { sweepDemoData, type SweepReport } from "@/lib/service/worker/sweep-demo-data";
import type { DemoApp } from "./demo-api";
import { startDemoSimulator, type DemoSimulator, type DemoSimulatorOptions } from "./demo-simulator";
import { HISTORY_REFERENCE } from "./demo-history";
import { seedDemo, type DemoState } from "./seed-demo";
import { seedDemoHistory } from "./seed-demo-history";
import { whenQuiet } from "./when-quiet";

export interface StartDemoOptions {
  intervalMs: number;
  retentionHours: number;
  /** How often the retention sweep runs (the first runs a minute after start). */
  sweepEveryMs?: number;
  simulator?: Partial<DemoSimulatorOptions>;
}

export interface RunningDemo {
  state: DemoState;
  fresh: boolean;
  simulator: DemoSimulator;
  stop(): Promise<void>;
}

/**
 * One retention sweep of the demo organisation. Stale active missions may go with it, so the
 * partner publishes their replacements at once: a visitor never finds fewer active missions than
 * the demo keeps, not even between a sweep and the next partner round.
 */
export async function sweepDemo(
  ctx: ServiceContext,
  simulator: Pick<DemoSimulator, "partnerRound">,
  state: Pick<DemoState, "orgId">,
  retentionHours: number,
  now?: Date,
): Promise<SweepReport> {
  const report = await sweepDemoData(ctx, { orgIds: [state.orgId], retentionHours, keepReferencePrefixes: [HISTORY_REFERENCE], ...(now ? { now } : {}) });
  if (report.missions > 0) await simulator.partnerRound(now);
  return report;
}

export async function startDemo(runtime: { ctx: ServiceContext; app: DemoApp }, options: StartDemoOptions): Promise<RunningDemo> {
  const { ctx, app } = runtime;
  const { state, fresh } = await seedDemo(ctx);
  // A month of past deliveries near Florence (once; a seed from before it gets it on its next start).
  const history = await seedDemoHistory(ctx, { orgId: state.orgId, zoomerClientId: state.zoomer.client_id });
  if (history.orders > 0) log.info("demo history seeded", { ...history });
  // The demo yields to real traffic: each of its own steps waits for a quiet moment (when-quiet.ts).
  const yieldToTraffic = (stopped: () => boolean) => whenQuiet({ stopped, idleFor: (ms) => ctx.traffic.idleFor(ms) });
  const simulator = startDemoSimulator(app, state, { burst: fresh, intervalMs: options.intervalMs, yieldToTraffic, ...options.simulator });
  ctx.onDashboardSignIn = (user) => (user.memberships.some((m) => m.org_id === state.orgId) ? simulator.nudge() : undefined);

  const sweepEveryMs = options.sweepEveryMs ?? 15 * 60_000;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = sweepDemo(ctx, simulator, state, options.retentionHours)
      .then((report) => {
        if (report.missions + report.orders + report.events > 0) log.info("demo retention sweep", { ...report });
      })
      .catch((error: unknown) => log.error("demo retention sweep failed", {}, error));
  };
  const first = setTimeout(sweep, Math.min(60_000, sweepEveryMs));
  const timer = setInterval(sweep, sweepEveryMs);
  first.unref();
  timer.unref();

  return {
    state,
    fresh,
    simulator,
    stop: async () => {
      clearTimeout(first);
      clearInterval(timer);
      ctx.onDashboardSignIn = undefined;
      await simulator.stop();
      await sweeping;
    },
  };
}
