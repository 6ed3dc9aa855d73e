// A benchmark is a declaration: its name, the header lines saying how it measures, and a run that
// returns its results and their Markdown. The runner (runBenchmarks) does everything around it once:
// the command line (cli.ts, zod), the child processes and temp dirs (one Supervisor, stopped on
// every exit path), the shared input photos, the run header, bench-results/<name>.json and the report
// on stdout. The rounds themselves come from interleave.ts (targets) and rounds.ts (in-process passes).
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { parseRunOptions, type RunOptions } from "./cli";
import { lazyPhotoSet, type PhotoSet } from "./photo-set";
import { Supervisor } from "./processes";
import { ROOT } from "./targets";

export type { RunOptions } from "./cli";

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  node: string;
  platform: string;
  memoryGiB: number;
  loadAverageAtStart: number[];
}

/** What a benchmark's run gets from the runner. */
export interface BenchContext {
  supervisor: Supervisor;
  options: RunOptions;
  /** bench-results/: profiles and screenshots go under it. */
  resultsDir: string;
  /** The file benchmarks' input photos, generated on first use and shared by them. */
  photos(): Promise<PhotoSet>;
}

export interface BenchmarkSpec<R extends object> {
  name: string;
  /** Lines for the run header describing how it measures; a line several benchmarks share prints once. */
  header?(options: RunOptions, machine: MachineInfo): string[];
  run(context: BenchContext): Promise<R>;
  /** The Markdown section of the report. */
  format(results: R): string;
  /** What goes into bench-results/<name>.json beside the run's command and machine (default: the results). */
  record?(results: R, options: RunOptions): object;
}

/** A declared benchmark, its result type erased so the runner can hold a list of them. */
export interface Benchmark {
  name: string;
  header(options: RunOptions, machine: MachineInfo): string[];
  run(context: BenchContext): Promise<{ results: object; markdown: string }>;
}

export function defineBenchmark<R extends object>(spec: BenchmarkSpec<R>): Benchmark {
  return {
    name: spec.name,
    header: (options, machine) => spec.header?.(options, machine) ?? [],
    run: async (context) => {
      const results = await spec.run(context);
      return { results: spec.record?.(results, context.options) ?? results, markdown: spec.format(results) };
    },
  };
}

export function machine(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? "unknown",
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** How this run was started, to repeat it exactly. */
export function commandLine(argv: readonly string[], lifecycleEvent = process.env.npm_lifecycle_event): string {
  const args = argv.map((a) => (/^[\w./=-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
  if (lifecycleEvent === "bench") return `npm run bench${args ? ` -- ${args}` : ""}`;
  return `tsx scripts/bench/run.ts${args ? ` ${args}` : ""}`;
}

/** The report's opening: command, machine, then each selected benchmark's header lines, each once. */
export function runHeader(info: MachineInfo, command: string, options: RunOptions, selected: readonly Benchmark[]): string {
  const lines = new Set(selected.flatMap((b) => b.header(options, info)));
  return [
    "## Benchmarks",
    "",
    `- command: \`${command}\``,
    `- machine: ${info.cpus} × ${info.cpuModel}, ${info.memoryGiB} GiB, ${info.platform}; node ${info.node}; load average at start ${info.loadAverageAtStart.join(" ")}`,
    ...lines,
  ].join("\n");
}

export function writeResults(resultsDir: string, name: string, payload: object): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}

/**
 * Runs `work` with a Supervisor that owns the run's child processes and temp dirs, stopped and
 * removed on every exit path: the end of the work, a thrown error, Ctrl-C or kill.
 */
export async function withSupervisor<T>(work: (supervisor: Supervisor) => Promise<T>): Promise<T> {
  const supervisor = new Supervisor();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n[bench] ${signal}: stopping child processes…`);
    void supervisor.cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // Whatever else ends the process (an uncaught error): no time to wait, kill the groups.
  const onExit = () => supervisor.killAllNow();
  process.on("exit", onExit);
  try {
    return await work(supervisor);
  } finally {
    await supervisor.cleanup();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", onExit);
  }
}

/** The entry point's last word: a failure on stderr (with its cause) and exit code 1. */
export function reportFailure(error: unknown): void {
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${String(error.cause)}` : "";
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}`);
  process.exitCode = 1;
}

/** Runs the benchmarks named in argv (all when none is named), one after the other. */
export async function runBenchmarks(benchmarks: readonly Benchmark[], argv: readonly string[]): Promise<void> {
  const options = parseRunOptions(
    argv,
    benchmarks.map((b) => b.name),
  );
  const info = machine();
  const command = commandLine(argv);
  const resultsDir = join(ROOT, "bench-results");
  const selected = options.selected.length ? benchmarks.filter((b) => options.selected.includes(b.name)) : benchmarks;
  console.log(runHeader(info, command, options, selected));
  await withSupervisor(async (supervisor) => {
    const photos = lazyPhotoSet(supervisor, options.inputs.photos, (m) => console.error(`[bench] photos: ${m}`));
    for (const benchmark of selected) {
      const started = new Date().toISOString();
      const outcome = await benchmark.run({ supervisor, options, resultsDir, photos });
      const file = writeResults(resultsDir, benchmark.name, { started, command, machine: info, ...outcome.results });
      console.log(`\n${outcome.markdown}\n\nResults: ${file}`);
    }
  });
}
