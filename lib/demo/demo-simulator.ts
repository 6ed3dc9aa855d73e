// The demo's heartbeat. A simulated zoomer submits a photo every little while (to the demo
// organisation's active missions, or for one of its orders' tasks), and a simulated partner keeps
// a few missions active and orders going. A visitor signing in nudges it: a short burst, so
// points arrive on the map within seconds. Everything goes through the service's own HTTP app.
import { log } from "@/lib/log";
import type { Mission } from "@/lib/schemas/mission";
import type { Order } from "@/lib/schemas/order";
import { DemoApi, type DemoApp } from "./demo-api";
import { keepOrdersAlive } from "./demo-orders";
import { fulfilDemoTask, type FulfilOptions, type TaskOutcome } from "./fulfil-demo-task";
import { DEMO_ACTIVE_MISSIONS, keepMissionsAlive } from "./keep-missions-alive";
import { DEMO_MISSIONS, demoCredentials, type DemoState } from "./seed-demo";
import { seededRandom } from "./seeded-random";
import { submitDemoPhoto } from "./submit-demo-photo";

export interface DemoSimulatorOptions {
  /** The opening burst of a freshly seeded demo (photos per opening mission). */
  burst: boolean;
  /** Mean time between the zoomer's actions. */
  intervalMs?: number;
  /** How often the partner checks its missions and orders (and right after a mission closes). */
  partnerEveryMs?: number;
  seed?: number;
  activeMissions?: number;
  /** Share of the zoomer's actions spent on order tasks while there are live orders. */
  orderShare?: number;
  /** A visitor's burst: this many actions, this far apart, at most once per cooldown. */
  nudgeBurst?: { actions: number; spacingMs: number; cooldownMs: number };
  fulfil?: FulfilOptions;
  size?: { width: number; height: number };
  /**
   * Awaited before each step the simulator starts on its own (the opening burst, ticks, partner
   * rounds; not a visitor's top-up and burst, which are the visitor's), nor before act() or
   * partnerRound() called directly: how the demo yields to
   * real traffic (start-demo.ts passes when-quiet.ts). Default: no wait.
   */
  yieldToTraffic?: (stopped: () => boolean) => Promise<void>;
}

export interface DemoSimulator {
  /** Resolves when the opening burst has been submitted. */
  burstDone: Promise<void>;
  /**
   * A visitor arrived: the partner tops the missions up at once (one that completed a moment ago is
   * replaced now, not at the next round) and, unless one ran within the cooldown, a short burst
   * follows. Resolves when the missions are topped up.
   */
  nudge(): Promise<void>;
  /** One of the zoomer's actions (tests drive the simulator with it). */
  act(): Promise<"photo" | "task" | "idle">;
  /** The partner's round: missions kept active, orders kept going. */
  partnerRound(now?: Date): Promise<{ published: Mission[]; placed: Order[] }>;
  stop(): Promise<void>;
}

export function startDemoSimulator(app: DemoApp, state: DemoState, options: DemoSimulatorOptions): DemoSimulator {
  const {
    burst,
    intervalMs = 20_000,
    partnerEveryMs = 30_000,
    seed = 2026,
    activeMissions = DEMO_ACTIVE_MISSIONS,
    orderShare = 0.3,
    nudgeBurst = { actions: 8, spacingMs: 1200, cooldownMs: 60_000 },
    fulfil = {},
    size,
    yieldToTraffic = async () => {},
  } = options;
  const random = seededRandom(seed + (burst ? 0 : Date.now() % 1000));
  const api = new DemoApi(app, demoCredentials(state));
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  let missions: Mission[] = [];
  let orders: Order[] = [];
  // Photos sent since the partner last looked: keeps the zoomer from piling onto a nearly full mission.
  const sentSince = new Map<string, number>();
  let lastBurstAt = -Infinity;
  let bursting = false;

  // One thing at a time: the opening burst, a visitor's burst, ticks and partner rounds queue up
  // rather than pile onto two shared cores.
  let chain: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = chain.then(work);
    chain = next.catch((error: unknown) => log.warn("demo step failed", {}, error));
    return next;
  }
  /**
   * serial() for the simulator's own steps: each waits until the process is quiet first (it
   * yields to real traffic), and a failure is only logged (the chain has; a timer has nobody to tell).
   * The wait happens before the step joins the chain, not inside it: a visitor's top-up (nudge)
   * queues behind steps that are running, never behind one still waiting for a quiet moment,
   * which on a busy server may not come before the visitor's sign-in stops waiting.
   */
  function background<T>(work: () => Promise<T>): Promise<T | undefined> {
    return yieldToTraffic(() => stopped)
      .then(() => (stopped ? undefined : serial(work)))
      .catch(() => undefined);
  }
  function later(ms: number, fn: () => void) {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) fn();
    }, ms);
    timers.add(timer);
  }

  async function partnerRoundNow(now = new Date()) {
    const kept = await keepMissionsAlive(api, random, { target: activeMissions });
    missions = kept.active;
    sentSince.clear();
    const ordered = await keepOrdersAlive(api, random, { now });
    orders = ordered.live;
    return { published: kept.published, placed: ordered.placed };
  }

  function pickMission(): Mission | undefined {
    const open = missions.filter((m) => m.required_images - m.approved_images - 0.75 * (sentSince.get(m.id) ?? 0) > 0);
    const pool = open.length > 0 ? open : missions;
    return pool[Math.floor(random() * pool.length)];
  }

  async function sendPhoto(mission: Mission): Promise<"photo" | "idle"> {
    const outcome = await submitDemoPhoto(api, mission, random, { size });
    if (outcome === "closed") {
      // Completed (or swept): the partner publishes a replacement right away.
      missions = missions.filter((m) => m.id !== mission.id);
      later(1000, () => void background(() => partnerRoundNow()));
      return "idle";
    }
    sentSince.set(mission.id, (sentSince.get(mission.id) ?? 0) + 1);
    return "photo";
  }

  async function actNow(): Promise<"photo" | "task" | "idle"> {
    const live = orders.filter((o) => o.status === "in_progress" || o.status === "active");
    if (live.length > 0 && random() < orderShare) {
      const done: TaskOutcome | null = await fulfilDemoTask(api, live, random, { size, ...fulfil });
      if (done) return "task";
    }
    if (missions.length === 0) missions = (await keepMissionsAlive(api, random, { target: activeMissions })).active;
    const mission = pickMission();
    return mission ? sendPhoto(mission) : "idle";
  }

  const burstDone = serial(async () => {
    await partnerRoundNow();
    if (!burst) return;
    for (const [index, definition] of DEMO_MISSIONS.entries()) {
      const id = state.missionIds[index];
      const mission = missions.find((m) => m.id === id);
      for (let i = 0; i < definition.burst && mission && !stopped; i++) {
        await yieldToTraffic(() => stopped);
        await sendPhoto(mission).catch((e: unknown) => log.warn("demo photo failed", {}, e));
      }
    }
  }).catch(() => undefined);

  const tick = () => {
    void background(actNow).finally(() => later(intervalMs * (0.5 + random()), tick));
  };
  const partnerTick = () => {
    void background(() => partnerRoundNow()).finally(() => later(partnerEveryMs, partnerTick));
  };
  void burstDone.then(() => {
    later(intervalMs * (0.5 + random()), tick);
    later(partnerEveryMs, partnerTick);
  });

  function nudge(): Promise<void> {
    if (stopped) return Promise.resolve();
    // The top-up is the visitor's own request's work (their sign-in waits for it), so it does not
    // yield to traffic: that traffic is the visitor.
    const refilled = serial(() => partnerRoundNow()).then(
      () => undefined,
      () => undefined,
    );
    const now = Date.now();
    if (bursting || now - lastBurstAt < nudgeBurst.cooldownMs) return refilled;
    bursting = true;
    lastBurstAt = now;
    let left = nudgeBurst.actions;
    const next = () => {
      if (stopped || left-- <= 0) {
        bursting = false;
        return;
      }
      // A visitor's burst is for the visitor to watch, so it does not wait for their page to fall
      // quiet either; it is small (nudgeBurst) and at most once per cooldown.
      void serial(actNow)
        .catch(() => undefined)
        .finally(() => {
          if (left > 0) later(nudgeBurst.spacingMs, next);
          else bursting = false;
        });
    };
    next();
    return refilled;
  }

  return {
    burstDone,
    nudge,
    act: () => serial(actNow),
    partnerRound: (now?: Date) => serial(() => partnerRoundNow(now)),
    stop: async () => {
      stopped = true;
      api.stop();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await chain.catch(() => undefined);
    },
  };
}
