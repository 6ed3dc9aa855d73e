// Starts the demo inside the service process (embedded default, DEMO on): seeds it once, runs the
// simulator through the service's own HTTP app, nudges the simulator when someone who belongs to
// the demo organisation signs in to the dashboard (the service tells it in-process: the dashboard
// never reaches the simulator or the database), and sweeps demo data past its retention.
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { sweepDemoData } from "@/lib/service/jobs/sweep-demo-data";
import type { DemoApp } from "./demo-api";
import { startDemoSimulator, type DemoSimulator, type DemoSimulatorOptions } from "./demo-simulator";
import { seedDemo, type DemoState } from "./seed-demo";

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

export async function startDemo(runtime: { ctx: ServiceContext; app: DemoApp }, options: StartDemoOptions): Promise<RunningDemo> {
  const { ctx, app } = runtime;
  const { state, fresh } = await seedDemo(ctx);
  const simulator = startDemoSimulator(app, state, { burst: fresh, intervalMs: options.intervalMs, ...options.simulator });
  ctx.onDashboardSignIn = (user) => {
    if (user.memberships.some((m) => m.org_id === state.orgId)) simulator.nudge();
  };

  const sweepEveryMs = options.sweepEveryMs ?? 15 * 60_000;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = sweepDemoData(ctx, { orgIds: [state.orgId], retentionHours: options.retentionHours })
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
