// The runner's command line and environment, parsed once with zod (every benchmark reads the same
// RunOptions): load settings for the servers under autocannon, rounds for everything interleaved,
// the inputs of the file and browser benchmarks, and the environment a benchmark may take a second
// database or another Node from. The flags are documented at the top of scripts/bench/run.ts.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { LoadSettings } from "./load";
import type { BuildMode } from "./next-build";
import type { RoundSettings } from "./rounds";

export interface FileInputs {
  photos: number;
  exportImages: number;
  memorySizes: number[];
  /** Submissions per mission in map-points. */
  mapSizes: number[];
  /** Submissions of the mission lighthouse-mission measures. */
  lighthouseSubmissions: number;
}

export interface RunOptions {
  load: LoadSettings;
  build: BuildMode;
  skipNext: boolean;
  profile: boolean;
  rounds: RoundSettings;
  inputs: FileInputs;
  /** Benchmarks named on the command line (all when empty). */
  selected: string[];
  /** map-points, map-frame, lighthouse-mission: another checkout whose page joins the rounds. */
  compareDir?: string;
  /** TEST_DATABASE_URL: the benchmarks that have a PostgreSQL pass run it on this server. */
  databaseUrl?: string;
  /** BENCH_OTHER_NODE: another Node binary, one more target for the API benchmarks. */
  otherNode?: string;
  /** BENCH_DEMO=off: api-routes measures the service without its demo (what the demo costs it). */
  demo: boolean;
}

/** Defaults a flag falls back to when not given. */
export const DEFAULTS = {
  durationSeconds: 10,
  warmupSeconds: 3,
  connections: 10,
  rounds: 5,
  warmupRounds: 1,
  minRoundSeconds: 1,
  photos: 40,
  exportImages: 400,
  memorySizes: [100, 1000],
  mapSizes: [10_000, 100_000, 1_000_000],
  lighthouseSubmissions: 10_000,
} as const;

/** A flag's string as a number > 0; the message names the flag. */
export const positive = (flag: string) =>
  z
    .string()
    .transform(Number)
    .refine((n) => Number.isFinite(n) && n > 0, `${flag} needs a positive number`);

/** A flag's string as a whole number > 0. */
export const whole = (flag: string) => positive(flag).refine(Number.isInteger, `${flag} needs a whole number`);

const sizes = (flag: string, least: number) =>
  z
    .string()
    .transform((value) => value.split(",").map((part) => part.trim()))
    .pipe(z.array(whole(flag)).min(least, `${flag} needs at least ${least} sizes, e.g. 100,1000`))
    .transform((list) => list.sort((a, b) => a - b));

const flagsSchema = z
  .object({
    duration: positive("--duration").default(DEFAULTS.durationSeconds),
    warmup: positive("--warmup").default(DEFAULTS.warmupSeconds),
    connections: positive("--connections").transform(Math.round).default(DEFAULTS.connections),
    build: z.boolean().default(false),
    "no-build": z.boolean().default(false),
    "skip-next": z.boolean().default(false),
    profile: z.boolean().default(false),
    rounds: whole("--rounds").default(DEFAULTS.rounds),
    "warmup-rounds": whole("--warmup-rounds").default(DEFAULTS.warmupRounds),
    "round-seconds": positive("--round-seconds").default(DEFAULTS.minRoundSeconds),
    photos: whole("--photos").default(DEFAULTS.photos),
    "export-images": whole("--export-images").default(DEFAULTS.exportImages),
    "memory-sizes": sizes("--memory-sizes", 2).default([...DEFAULTS.memorySizes]),
    "map-sizes": sizes("--map-sizes", 1).default([...DEFAULTS.mapSizes]),
    "compare-dir": z.string().min(1).optional(),
    "lighthouse-submissions": whole("--lighthouse-submissions").default(DEFAULTS.lighthouseSubmissions),
  })
  .refine((f) => !(f.build && f["no-build"]), "--build and --no-build exclude each other");

const envSchema = z.object({
  TEST_DATABASE_URL: z.string().min(1).optional(),
  BENCH_OTHER_NODE: z.string().min(1).optional(),
  BENCH_DEMO: z.enum(["on", "off"], { message: "BENCH_DEMO is on or off" }).default("on"),
});

const BOOLEAN_FLAGS = new Set(["build", "no-build", "skip-next", "profile"]);

/** parseArgs' option table for a flags schema: its boolean flags by name, every other flag a string. */
export function argsOf(shape: Record<string, unknown>, booleans: ReadonlySet<string> = BOOLEAN_FLAGS) {
  return Object.fromEntries(Object.keys(shape).map((flag) => [flag, { type: booleans.has(flag) ? ("boolean" as const) : ("string" as const) }]));
}

/** Parses parseArgs' values with `schema`; throws the first problem, whose message names the flag. */
export function parseFlags<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "invalid arguments");
  return parsed.data;
}

/**
 * Parses argv (without node and the script) and the environment. `known` are the benchmark names;
 * a positional that is none of them is an error listing them.
 */
export function parseRunOptions(
  argv: readonly string[],
  known: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): RunOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: argsOf(flagsSchema.shape),
  });
  const f = parseFlags(flagsSchema, values);
  const unknown = positionals.filter((p) => !known.includes(p));
  if (unknown.length) throw new Error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${known.join(", ")}`);
  const { TEST_DATABASE_URL: databaseUrl, BENCH_OTHER_NODE: otherNode, BENCH_DEMO: demo } = parseFlags(envSchema, env);
  return {
    load: { durationSeconds: f.duration, warmupSeconds: f.warmup, connections: f.connections },
    build: f.build ? "always" : f["no-build"] ? "never" : "auto",
    skipNext: f["skip-next"],
    profile: f.profile,
    demo: demo === "on",
    rounds: { warmupRounds: f["warmup-rounds"], rounds: f.rounds, minRoundSeconds: f["round-seconds"] },
    inputs: {
      photos: f.photos,
      exportImages: f["export-images"],
      memorySizes: f["memory-sizes"],
      mapSizes: f["map-sizes"],
      lighthouseSubmissions: f["lighthouse-submissions"],
    },
    selected: positionals,
    ...(f["compare-dir"] ? { compareDir: resolve(f["compare-dir"]) } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(otherNode ? { otherNode } : {}),
  };
}

/** "PostgreSQL too (TEST_DATABASE_URL)" / "skipped (…)": the header line's database note. */
export const postgresNote = (options: Pick<RunOptions, "databaseUrl">): string =>
  `PostgreSQL ${options.databaseUrl ? "too (TEST_DATABASE_URL)" : "skipped (TEST_DATABASE_URL not set)"}`;
