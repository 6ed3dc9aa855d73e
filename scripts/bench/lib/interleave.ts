// Interleaved rounds for targets measured one at a time (servers under load, a subject and its
// baselines and peers): every round gives every target one turn per case, the targets' order
// rotating each round, so drift of a shared machine (another process, the page cache, tables
// growing) lands on all of them alike. Figures are medians over rounds; a ratio is the median of
// the per-round paired ratios, reported with its range. The in-process file benchmarks use the
// same rotation through rounds.ts.
import { loadavg } from "node:os";
import type { ManagedProcess } from "./processes";

export const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The 1-minute load average now, to 2 decimals: above the CPU count, other processes shared the cores. */
export const loadAverage1m = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
};

/** Round r's order: the list rotated by r (mod its length), so each target goes first equally often. */
export const rotation = <T>(list: readonly T[], round: number): T[] => list.map((_, i) => list[(i + round) % list.length] as T);

/** A figure over rounds: the median, its range, and every round's value (rounded to 3 decimals). */
export interface Spread {
  value: number;
  min: number;
  max: number;
  perRound: number[];
}

export function spread(values: readonly number[]): Spread {
  return { value: round3(median(values)), min: round3(Math.min(...values)), max: round3(Math.max(...values)), perRound: values.map(round3) };
}

/**
 * num[i] ÷ den[i] per round, as a Spread; rounds where either side is missing, not finite or the
 * divisor is 0 are left out (an invalid run). Undefined when no round pairs up.
 */
export function pairedRatio(num: readonly (number | undefined)[], den: readonly (number | undefined)[]): Spread | undefined {
  const pairs = num.flatMap((n, i) => {
    const d = den[i];
    return n !== undefined && d !== undefined && Number.isFinite(n) && Number.isFinite(d) && d !== 0 ? [n / d] : [];
  });
  return pairs.length ? spread(pairs) : undefined;
}

/** pairedRatio without the per-round list: median and range, NaN when no round pairs up. */
export function pairedRange(num: readonly (number | undefined)[], den: readonly (number | undefined)[]): { value: number; min: number; max: number } {
  const { value, min, max } = pairedRatio(num, den) ?? { value: NaN, min: NaN, max: NaN };
  return { value, min, max };
}

/** Nearest-rank percentile p (0–100) of values sorted ascending; 0 when there are none. */
export const nearestRank = (sorted: ArrayLike<number>, p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export interface Percentiles {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of samples (e.g. latencies in ms), each rounded by `round`. */
export function percentiles(values: readonly number[], round: (n: number) => number = round3): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => round(nearestRank(sorted, p));
  return { n: sorted.length, min: round(sorted[0] ?? 0), p50: at(50), p90: at(90), p99: at(99), max: round(sorted[sorted.length - 1] ?? 0) };
}

/** The sample at the median of `key` (the lower middle for an even count), e.g. the round reported in a table. */
export function medianSample<S>(samples: readonly S[], key: (s: S) => number): S | undefined {
  const sorted = [...samples].sort((a, b) => key(a) - key(b));
  return sorted[(sorted.length - 1) >> 1];
}

export interface Target {
  name: string;
}

/** One thing to measure on every target each round (an endpoint, a request family); one unnamed case by default. */
export interface Case {
  name: string;
}

export interface Turn<C extends Case> {
  /** The measured round (0-based); a warm-up round's index among the warm-up rounds. */
  round: number;
  case: C;
  /** A warm-up round's turn: its sample is discarded. */
  warmup: boolean;
}

/** Keeps processes that should not run while other targets are measured (a service with its demo) paused. */
export interface Pauser<T extends Target> {
  pause(target: T): void;
  resume(target: T): void;
}

export interface InterleaveOptions<T extends Target, S, C extends Case> {
  rounds: number;
  /** The subject, baselines and peers; the order of round 0. */
  targets: readonly T[];
  cases?: readonly C[];
  /** Measures one sample of `target` in its turn. */
  sample(target: T, turn: Turn<C>): Promise<S>;
  /** Once per target, in the order of round 0, before the rounds (e.g. a discarded load run). */
  warmUp?(target: T): Promise<void>;
  /**
   * Rounds run like the measured ones before them (every target, every case, the order rotating),
   * their samples discarded; the measured rounds continue the rotation. After warmUp, if both.
   */
  warmupRounds?: number;
  /** Paused before the first turn and between its own turns; resumed for its turns and at the end. */
  pauser?: Pauser<T>;
  /** Called after every sample (the warm-up rounds' too), e.g. to log it. */
  onSample?(target: T, turn: Turn<C>, sample: S): void;
}

export interface Interleaved<S> {
  /** A target's samples for a case, in round order. */
  of(target: string, caseName?: string): S[];
  /** 1-minute load average after each round: above the CPU count, other processes shared the cores. */
  loadAverage1m: number[];
}

const NO_CASE: Case = { name: "" };
const key = (target: string, caseName: string) => `${caseName}\u0000${target}`;

export async function interleave<T extends Target, S, C extends Case = Case>(options: InterleaveOptions<T, S, C>): Promise<Interleaved<S>> {
  const cases = options.cases ?? [NO_CASE as C];
  const samples = new Map<string, S[]>();
  const loadAverages: number[] = [];
  const { pauser } = options;
  for (const target of options.targets) pauser?.pause(target);
  try {
    for (const target of options.warmUp ? options.targets : []) {
      pauser?.resume(target);
      try {
        await options.warmUp?.(target);
      } finally {
        pauser?.pause(target);
      }
    }
    const warmupRounds = options.warmupRounds ?? 0;
    for (let r = 0; r < warmupRounds + options.rounds; r++) {
      const warmup = r < warmupRounds;
      const round = warmup ? r : r - warmupRounds;
      for (const kase of cases) {
        for (const target of rotation(options.targets, r)) {
          const turn = { round, case: kase, warmup };
          pauser?.resume(target);
          let sample: S;
          try {
            sample = await options.sample(target, turn);
          } finally {
            pauser?.pause(target);
          }
          if (!warmup) {
            const k = key(target.name, kase.name);
            samples.set(k, [...(samples.get(k) ?? []), sample]);
          }
          options.onSample?.(target, turn, sample);
        }
      }
      if (!warmup) loadAverages.push(loadAverage1m());
    }
  } finally {
    // Paused processes could not take the SIGTERM of stopAll().
    for (const target of options.targets) pauser?.resume(target);
  }
  return { of: (target, caseName = "") => samples.get(key(target, caseName)) ?? [], loadAverage1m: loadAverages };
}

/**
 * SIGSTOP / SIGCONT to the process group of each target that has a process in `idle` (the
 * children lead their groups, see processes.ts): that target's processes run only in its turns.
 */
export function pauseGroups<T extends Target>(idle: (target: T) => ManagedProcess | undefined): Pauser<T> {
  const signal = (target: T, name: "SIGSTOP" | "SIGCONT") => {
    const child = idle(target);
    if (child && !child.hasExited()) process.kill(-child.pid, name);
  };
  return { pause: (t) => signal(t, "SIGSTOP"), resume: (t) => signal(t, "SIGCONT") };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** "0.912 (0.850–0.990)", or "–" when there is no figure. */
export const spreadText = (s: Spread | undefined, digits = 3): string =>
  s === undefined ? "–" : `${fmt(s.value, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

/** A Markdown table: header cells, one alignment per column ("l" or "r"), rows of cells. */
export function table(header: readonly string[], align: string, rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), `|${[...align].map((a) => (a === "r" ? "---:" : "---")).join("|")}|`, ...rows.map(line)];
}
