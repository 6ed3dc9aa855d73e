// Latency rounds, for a pipeline measured end to end without a baseline (order-delivery-latency):
// each round times items one at a time (each after a set-up and a random pause, neither timed, so
// that starts do not keep one phase of a worker's poll), then a burst of items started together;
// rounds start only within a time budget. Then the rounds' percentiles, their spread over rounds
// and the latency table's rows.
import { cpus } from "node:os";
import { fmt, loadAverage1m, spread, spreadText, type Percentiles } from "./interleave";
import { wallClockMs } from "./wall-clock";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One timed item. */
export interface LatencySample {
  /** Start → end, ms: the figure. */
  totalMs: number;
  /** When it ended (lib/wall-clock.ts ms). */
  arrivedAt: number;
}

export interface LatencySteps<I, S extends LatencySample> {
  /** An item's set-up, not timed (e.g. take the task). */
  prepare(item: I): Promise<void>;
  /** The timed part: start the item and wait for its end. */
  measure(item: I): Promise<S>;
}

/** A round's figures: percentiles of each mode, and the burst's span and rate. */
export interface LatencyRoundFigures {
  sequential: { totalMs: Percentiles };
  burst: {
    totalMs: Percentiles;
    /** First burst start → last burst end, seconds (to the ms). */
    seconds: number;
    /** Burst items that ended per second, over `seconds` (2 decimals): deliveries, for a delivery pipeline. */
    deliveriesPerSecond: number;
  };
  /** Right after the round. */
  loadAverage1m: number;
}

export interface LatencyRound<S> extends LatencyRoundFigures {
  sequential: { totalMs: Percentiles; samples: S[] };
  burst: LatencyRoundFigures["burst"] & { samples: S[] };
}

/**
 * One round: each of `sequential` prepared, a pause of `pauseMs()`, measured, the next once it
 * ended; then all of `burst` prepared first and measured together. `percentiles` of totalMs per mode.
 */
export async function runLatencyRound<I, S extends LatencySample>(
  steps: LatencySteps<I, S>,
  sequential: readonly I[],
  burst: readonly I[],
  pauseMs: () => number,
  percentiles: (values: number[]) => Percentiles,
): Promise<LatencyRound<S>> {
  const one: S[] = [];
  for (const item of sequential) {
    await steps.prepare(item);
    await sleep(pauseMs());
    one.push(await steps.measure(item));
  }
  for (const item of burst) await steps.prepare(item);
  const started = wallClockMs();
  const together = await Promise.all(burst.map((item) => steps.measure(item)));
  // First start → last end (measure resolves at its item's end).
  const span = (Math.max(...together.map((s) => s.arrivedAt)) - started) / 1000;
  return {
    sequential: { totalMs: percentiles(one.map((s) => s.totalMs)), samples: one },
    burst: {
      totalMs: percentiles(together.map((s) => s.totalMs)),
      samples: together,
      seconds: Math.round(span * 1000) / 1000,
      deliveriesPerSecond: Math.round((together.length / span) * 100) / 100,
    },
    loadAverage1m: loadAverage1m(),
  };
}

/** Warm-up: each item prepared and measured, one at a time, no pause; `onSample` hears each (then it is discarded). */
export async function warmUpOneByOne<I, S extends LatencySample>(steps: LatencySteps<I, S>, items: readonly I[], onSample: (sample: S) => void): Promise<void> {
  for (const item of items) {
    await steps.prepare(item);
    onSample(await steps.measure(item));
  }
}

/**
 * Round r = 0, 1, … up to `rounds`, each but the first only while less than `budgetMs` has
 * passed since `begun` (performance.now()); `onBudgetSpent` hears how many ran when it stops early.
 */
export async function runRoundsWithinBudget<R>(
  rounds: number,
  budget: { begun: number; budgetMs: number; onBudgetSpent(ran: number): void },
  round: (r: number) => Promise<R>,
): Promise<R[]> {
  const done: R[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r > 0 && performance.now() - budget.begun > budget.budgetMs) {
      budget.onBudgetSpent(r);
      break;
    }
    done.push(await round(r));
  }
  return done;
}

/** Each round's one-at-a-time p50 and p99 (its max at ≤ 100 samples), the bursts' p50 and deliveries/s. */
export function collectPerRoundFigures(rounds: readonly LatencyRoundFigures[]): {
  p50: number[];
  p99: number[];
  burstP50: number[];
  burstDeliveriesPerSecond: number[];
} {
  return {
    p50: rounds.map((r) => r.sequential.totalMs.p50),
    p99: rounds.map((r) => r.sequential.totalMs.p99),
    burstP50: rounds.map((r) => r.burst.totalMs.p50),
    burstDeliveriesPerSecond: rounds.map((r) => r.burst.deliveriesPerSecond),
  };
}

// ---- report ---------------------------------------------------------------------------------

/** A round for the progress log: one at a time p50 and max; the burst's p50, max and deliveries/s. */
export const describeRound = (r: LatencyRoundFigures & { burst: { samples: readonly unknown[] } }): string =>
  `one at a time p50 ${fmt(r.sequential.totalMs.p50)} ms, max ${fmt(r.sequential.totalMs.max)} ms; ` +
  `burst of ${r.burst.samples.length}: p50 ${fmt(r.burst.totalMs.p50)} ms, max ${fmt(r.burst.totalMs.max)} ms, ${fmt(r.burst.deliveriesPerSecond, 2)} deliveries/s`;

/** Values as "a, b, c". */
export const formatList = (values: readonly number[], digits = 0): string => values.map((v) => fmt(v, digits)).join(", ");

/** Values over rounds as "median (min–max)". */
export const formatSpreadOf = (values: readonly number[], digits = 0): string => spreadText(spread(values), digits);

/** The latency table's figure columns (headers and alignment), filled by formatLatencyCells. */
export const LATENCY_COLUMNS = { header: ["samples", "p50 ms", "p90 ms", "p99 ms", "max ms"], align: "rrrrr" } as const;

/** A row's figure cells: samples, p50, p90, p99, max (ms); p50 and p99 in bold for the headline row. */
export function formatLatencyCells(p: Percentiles, headline = false): string[] {
  const bold = (text: string) => (headline ? `**${text}**` : text);
  return [String(p.n), bold(fmt(p.p50)), fmt(p.p90), bold(fmt(p.p99)), fmt(p.max)];
}

/** The rounds one by one: one-at-a-time p50 and max, bursts' p50 and deliveries/s, the load average after each. */
export function describePerRound(rounds: readonly LatencyRoundFigures[]): string {
  const r = collectPerRoundFigures(rounds);
  return (
    `Per round, one at a time, p50: ${formatList(r.p50)} ms; max: ${formatList(rounds.map((x) => x.sequential.totalMs.max))} ms; bursts p50: ${formatList(r.burstP50)} ms, ` +
    `deliveries/s: ${formatList(r.burstDeliveriesPerSecond, 2)}. ` +
    `1-min load average after each round: ${formatList(
      rounds.map((x) => x.loadAverage1m),
      2,
    )} (on ${cpus().length} CPUs).`
  );
}
