// Timed rounds for the in-process file benchmarks: every variant (the baseline first) does the
// same work, in rounds whose order rotates, so drift of the machine during the run (page cache,
// CPU frequency, another process) lands on all variants alike. Ratios are paired per round.
import { forceGc } from "./gc";
import { loadAverage1m, median, rotation, round3 } from "./interleave";

export { median };

export interface RoundSettings {
  /** Rounds run and discarded before measuring (JIT, page cache, sharp/libvips start-up). */
  warmupRounds: number;
  /** Measured rounds; the report takes the median. */
  rounds: number;
  /** Each round repeats the pass until the fastest variant's round lasts at least this long. */
  minRoundSeconds: number;
}

export interface Variant {
  name: string;
  label: string;
  /** One pass over all inputs. `pass` numbers the passes of a round, to keep outputs apart. */
  pass(pass: number): Promise<void>;
  /** Removes what a round wrote (not timed), so the disk does not fill up across rounds. */
  reset?(): Promise<void>;
}

/** What one pass processes, identical for every variant: that is what makes the ratio fair. */
export interface PassWork {
  bytes: number;
  files: number;
}

export interface VariantTiming {
  name: string;
  label: string;
  /** Seconds of each measured round (each round = passesPerRound passes). */
  roundSeconds: number[];
  medianRoundSeconds: number;
  /** CPU seconds (user + system, all threads of this process, libvips' included) of each round. */
  cpuRoundSeconds: number[];
  medianCpuSeconds: number;
  /** Throughput at the median round; MB = 10^6 bytes. */
  mbPerSecond: number;
  filesPerSecond: number;
}

export interface PairedRatio {
  /** variant throughput / baseline throughput. */
  name: string;
  of: string;
  /** Median over rounds of the per-round ratio. */
  value: number;
  min: number;
  max: number;
  goal?: number;
  meetsGoal?: boolean;
}

export interface RoundsResult {
  passesPerRound: number;
  work: PassWork;
  timings: VariantTiming[];
  /** Every variant after the first against the first (the baseline). */
  ratios: PairedRatio[];
  /**
   * The same pairs on CPU time: work per file regardless of waiting for a CPU, so much less
   * disturbed by other processes on a shared machine. Diagnostic; the goals are on wall time.
   */
  cpuRatios: PairedRatio[];
  /** 1-minute load average after each measured round: > CPU count means others shared the CPUs. */
  loadAverage1m: number[];
}

interface RoundTime {
  seconds: number;
  cpuSeconds: number;
}

async function timeRound(variant: Variant, passes: number): Promise<RoundTime> {
  // Garbage of the previous variant must not be collected on this one's clock.
  forceGc();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) await variant.pass(pass);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await variant.reset?.();
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

async function warmUp(variants: Variant[], settings: RoundSettings, log: (message: string) => void): Promise<number> {
  let fastestPass = Infinity;
  for (let r = 0; r < settings.warmupRounds; r++) {
    for (const variant of rotation(variants, r)) {
      const { seconds } = await timeRound(variant, 1);
      fastestPass = Math.min(fastestPass, seconds);
      log(`warm-up ${variant.name}: ${seconds.toFixed(2)} s/pass`);
    }
  }
  return Math.max(1, Math.ceil(settings.minRoundSeconds / fastestPass));
}

function pairedRatio(name: string, variant: number[], baseline: number[]): PairedRatio {
  // Equal work per round: throughput ratio = baseline time / variant time.
  const perRound = variant.map((s, i) => (baseline[i] ?? 0) / s);
  return {
    name,
    of: "baseline",
    value: round3(median(perRound)),
    min: round3(Math.min(...perRound)),
    max: round3(Math.max(...perRound)),
  };
}

/** The goal (a minimum throughput ratio) and which ratios it applies to (names starting with `on`; all by default). */
export interface RoundsGoal {
  min: number;
  on?: string;
}

export async function measureRounds(
  variants: Variant[],
  work: PassWork,
  settings: RoundSettings,
  log: (message: string) => void,
  goal?: RoundsGoal,
): Promise<RoundsResult> {
  const passes = await warmUp(variants, settings, log);
  const times = new Map<string, RoundTime[]>(variants.map((v) => [v.name, []]));
  const load: number[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    for (const variant of rotation(variants, r)) {
      const t = await timeRound(variant, passes);
      times.get(variant.name)?.push(t);
      log(`round ${r + 1}/${settings.rounds} ${variant.name}: ${t.seconds.toFixed(2)} s, CPU ${t.cpuSeconds.toFixed(2)} s (${passes} passes)`);
    }
    load.push(loadAverage1m());
  }
  const wall = (name: string) => (times.get(name) ?? []).map((t) => t.seconds);
  const cpu = (name: string) => (times.get(name) ?? []).map((t) => t.cpuSeconds);
  const timings = variants.map((v): VariantTiming => {
    const mid = median(wall(v.name));
    return {
      name: v.name,
      label: v.label,
      roundSeconds: wall(v.name).map(round3),
      medianRoundSeconds: round3(mid),
      cpuRoundSeconds: cpu(v.name).map(round3),
      medianCpuSeconds: round3(median(cpu(v.name))),
      mbPerSecond: round3((work.bytes * passes) / 1e6 / mid),
      filesPerSecond: round3((work.files * passes) / mid),
    };
  });
  const [baseline, ...others] = variants;
  const base = baseline?.name ?? "";
  const ratios = others
    .map((v) => pairedRatio(`${v.name} / ${base}`, wall(v.name), wall(base)))
    .map((r) => (goal && r.name.startsWith(goal.on ?? "") ? withGoal(r, goal.min) : r));
  const cpuRatios = others.map((v) => pairedRatio(`CPU time: ${v.name} / ${base}`, cpu(v.name), cpu(base)));
  return { passesPerRound: passes, work, timings, ratios, cpuRatios, loadAverage1m: load };
}

/** Marks a ratio against its goal (a minimum). */
export function withGoal(ratio: PairedRatio, goal: number): PairedRatio {
  return { ...ratio, goal, meetsGoal: ratio.value >= goal };
}
