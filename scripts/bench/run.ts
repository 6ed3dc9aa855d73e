// Benchmark runner (`npm run bench -- [benchmark…] [flags]`). Each benchmark is a sibling module
// exporting a function that returns its results; the runner owns the child processes and temp
// dirs (so every exit path cleans up), prints Markdown to stdout and writes
// bench-results/<benchmark>.json. Progress goes to stderr so stdout stays a clean report.
//
// Flags:
//   --duration <s>     measured seconds per target (default 10)
//   --warmup <s>       warm-up seconds per target, discarded (default 3)
//   --connections <n>  concurrent connections (default 10); pipelining is always 1
//   --build            always run `next build` first
//   --no-build         never build; use .next as it is (reported when it is stale)
//                      default: build only if .next/BUILD_ID is missing or older than a file in
//                      app/, lib/ (tests excluded) or the root config, and no other Next server or
//                      build from this tree is running (rebuilding .next under it would break it);
//                      a stale build that is kept is reported as such. Waits for a running build.
//   --skip-next        do not measure the API mounted in Next
//   --profile          add a standalone pass under `node --cpu-prof` and summarise where time goes
//                      (profile kept in bench-results/profiles/; its figures are not in the ratios);
//                      the in-process file benchmarks add one profiled pass of their subject;
//                      map-points adds one Chrome-traced load of each page at its largest size
// File benchmarks (photo-intake, mission-export, thumbnail-job; in this process, one file at a time):
//   --rounds <n>         measured rounds per variant (default 5); the report takes the median
//   --warmup-rounds <n>  warm-up rounds per variant, discarded (default 1)
//   --round-seconds <s>  a round repeats the pass until the fastest variant takes this long (default 1)
//   --photos <n>         generated 1600×1200 JPEGs, made once per run (default 40); the shared
//                        corpus's real camera files are added when ../shared/corpus exists
//   --export-images <n>  images in the mission-export throughput mission (default 400)
//   --memory-sizes <a,b> image counts of the mission-export memory check (default 100,1000)
// Browser benchmarks (map-points, first-load-js; Chromium at /usr/bin/chromium, `next start`):
//   --map-sizes <a,b>    submissions per mission in map-points (default 10000,100000,1000000); its
//                        rounds are --rounds / --warmup-rounds (page loads per page per size)
//   --compare-dir <dir>  another checkout with its own node_modules and production build (e.g. a
//                        worktree of main): its mission page runs in the same rounds on a copy
//                        of the same database, as a third page — a before/after in one run
//                        (lighthouse-mission takes it too; map-frame draws that checkout's
//                        submission layers as a third variant)
// map-frame (Chromium, no server of ours): --rounds / --warmup-rounds page loads per variant
// lighthouse-mission (Lighthouse desktop on the mission page vs the bare MapLibre page, a fresh
//   Chromium per run): --rounds / --warmup-rounds runs per page; --lighthouse-submissions <n>
//   submissions in the measured mission (default 10000)
// api-get-mission, api-routes: BENCH_OTHER_NODE=<node binary> adds `npm start` under that Node (e.g.
//   the `node` package's 24.x) as one more target in the same interleaved rounds
// api-get-mission: PostgreSQL too when TEST_DATABASE_URL is set (the standalone API and the Fastify
//   peer on one database created for the run), in the same interleaved rounds
// api-routes: every authenticated read family under `npm start` with the demo on (--skip-next: the
//   standalone API), each vs bare (the same bytes) and the fair Fastify peer (the same read),
//   --rounds interleaved rounds of --warmup + --duration seconds per family and target
// orders-create (autocannon like api-get-mission): the API, a minimal create handler (same schema,
//   one transaction, same database) and the bare server; --warmup once per target, then --rounds
//   rounds of --duration seconds per target, the order rotating; PostgreSQL too when
//   TEST_DATABASE_URL is set; --profile adds a PGlite pass under `node --cpu-prof`
// orders-feasibility: POST /orders/feasibility vs POST /orders/quote, the same 100-location body,
//   one request per pass in --rounds / --warmup-rounds / --round-seconds rounds (the file
//   benchmarks' harness) on a seeded history; PostgreSQL too when TEST_DATABASE_URL is set
// verify-photo (in this process, like the file benchmarks): --rounds / --warmup-rounds /
//   --round-seconds per input photo; --profile adds a 2 s inspector profile of the subject
// verify-vision (in this process): verifyPhoto with the local vision model on a 12 MP JPEG vs the
//   model alone on the same decoded input; max(20, 4 × --rounds) photos per variant
// field-resume (standalone API, tus-js-client through a counting proxy): --rounds / --warmup-rounds
//   pairs of one clean and one thrice-cut 8 MiB send, then tus vs multipart intake throughput in
//   rounds over the run's photos (--photos, --round-seconds)
// order-delivery-latency: --rounds rounds of 10 uploads one at a time + a burst of 6, after 3
//   warm-up uploads, a round starting only within 100 s of a database's start; PostgreSQL too
//   when TEST_DATABASE_URL is set (no baseline: a latency)
// Exit code: 0 when the runner completed, even if a goal is missed or a target run was invalid
// (both are in the report; so is a Next that does not build or start); 1 when it could not run
// (the standalone API or the bare server did not start, or set-up through the API failed).
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatApiGetMission, runApiGetMission } from "./api-get-mission";
import { formatApiRoutes, runApiRoutes } from "./api-routes";
import { firstLoadJsHeader, formatFirstLoadJs, runFirstLoadJs } from "./first-load-js";
import type { LoadSettings } from "./lib/load";
import type { BuildMode } from "./lib/next-build";
import { lazyPhotoSet, type PhotoSet } from "./lib/photo-set";
import { Supervisor } from "./lib/processes";
import type { RoundSettings } from "./lib/rounds";
import { ROOT } from "./lib/targets";
import { DEFAULT_SUBMISSIONS as LIGHTHOUSE_SUBMISSIONS, formatLighthouseMission, lighthouseHeader, runLighthouseMission } from "./lighthouse-mission";
import { formatMapFrame, mapFrameHeader, runMapFrame } from "./map-frame";
import { DEFAULT_SIZES as MAP_SIZES, formatMapPoints, mapPointsHeader, runMapPoints } from "./map-points";
import { formatFieldResume, runFieldResume } from "./field-resume";
import { formatMissionExport, runMissionExport } from "./mission-export";
import { formatOrderDeliveryLatency, orderDeliveryHeader, orderDeliverySettings, runOrderDeliveryLatency } from "./order-delivery-latency";
import { formatOrdersFeasibility, runOrdersFeasibility } from "./orders-feasibility";
import { formatOrdersCreate, ordersCreateHeader, ordersCreateSettings, runOrdersCreate } from "./orders-create";
import { formatPhotoIntake, runPhotoIntake } from "./photo-intake";
import { formatThumbnailJob, runThumbnailJob } from "./thumbnail-job";
import { formatVerifyPhoto, runVerifyPhoto, verifyPhotoHeader } from "./verify-photo";
import { formatVerifyVision, runVerifyVision, verifyVisionHeader } from "./verify-vision";
import { formatWebhookDelivery, runWebhookDelivery, webhookDeliveryHeader, webhookDeliverySettings } from "./webhook-delivery";

interface FileInputs {
  photos: number;
  exportImages: number;
  memorySizes: number[];
  /** Submissions per mission in map-points. */
  mapSizes: number[];
  /** Submissions of the mission lighthouse-mission measures. */
  lighthouseSubmissions: number;
}

interface RunOptions {
  load: LoadSettings;
  build: BuildMode;
  skipNext: boolean;
  profile: boolean;
  rounds: RoundSettings;
  inputs: FileInputs;
  selected: string[];
  /** map-points: another checkout whose mission page joins the rounds. */
  compareDir?: string;
}

interface RunContext {
  supervisor: Supervisor;
  options: RunOptions;
  resultsDir: string;
  /** The file benchmarks' input photos, generated on first use and shared by them. */
  photos: () => Promise<PhotoSet>;
}

type MachineInfo = ReturnType<typeof machine>;

interface BenchmarkOutcome {
  results: object;
  markdown: string;
}

interface Benchmark {
  name: string;
  /** Lines for the run header describing how this benchmark measures (shared lines print once). */
  header(options: RunOptions, info: MachineInfo): string[];
  run(context: RunContext): Promise<BenchmarkOutcome>;
}

function loadHeader(options: RunOptions, info: MachineInfo): string[] {
  const { load } = options;
  return [
    `- api-get-mission load: autocannon, ${load.connections} connections, pipelining 1, ${load.warmupSeconds} s warm-up (discarded) + ${load.durationSeconds} s measured per target, one target at a time`,
    `- note: the load generator (autocannon, in the runner process) and the server under test share these ${info.cpus} CPUs, ` +
      "so absolute figures understate a real server; compare the ratios, which are measured in the same run under the same handicap.",
    `- latency: per response, sub-millisecond (autocannon's own histogram counts whole ms)`,
  ];
}

function fileHeader(options: RunOptions): string[] {
  const { rounds, inputs } = options;
  return [
    `- file benchmarks: in the runner process, subject and baseline on the same files in the same run; ${rounds.warmupRounds} warm-up + ${rounds.rounds} measured rounds per variant, ` +
      `≥ ${rounds.minRoundSeconds} s per round; ${inputs.photos} generated photos (+ corpus files when present); absolute figures depend on this machine, compare the ratios`,
  ];
}

function mapPointsSettings(options: RunOptions) {
  return { sizes: options.inputs.mapSizes, rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds };
}

function lighthouseSettings(options: RunOptions) {
  return { submissions: options.inputs.lighthouseSubmissions, rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds };
}

// New benchmarks: add a sibling module and one entry here.
const BENCHMARKS: Benchmark[] = [
  {
    name: "api-get-mission",
    header: loadHeader,
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runApiGetMission({
        supervisor,
        resultsDir,
        load: options.load,
        build: options.build,
        skipNext: options.skipNext,
        profile: options.profile,
        rounds: options.rounds.rounds,
        databaseUrl: process.env.TEST_DATABASE_URL,
        ...(process.env.BENCH_OTHER_NODE ? { otherNode: process.env.BENCH_OTHER_NODE } : {}),
      });
      return { results: { load: options.load, ...results }, markdown: formatApiGetMission(results) };
    },
  },
  {
    name: "api-routes",
    header: loadHeader,
    run: async ({ supervisor, options }) => {
      const results = await runApiRoutes({
        supervisor,
        load: options.load,
        build: options.build,
        rounds: options.rounds.rounds,
        standalone: options.skipNext,
        ...(process.env.BENCH_OTHER_NODE ? { otherNode: process.env.BENCH_OTHER_NODE } : {}),
      });
      return { results: { load: options.load, ...results }, markdown: formatApiRoutes(results) };
    },
  },
  {
    name: "orders-create",
    header: ordersCreateHeader,
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runOrdersCreate({ supervisor, resultsDir, ...ordersCreateSettings(options) });
      return { results, markdown: formatOrdersCreate(results) };
    },
  },
  {
    name: "orders-feasibility",
    header: fileHeader,
    run: async ({ supervisor, options }) => {
      const results = await runOrdersFeasibility({
        supervisor,
        rounds: options.rounds,
        ...(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL } : {}),
      });
      return { results, markdown: formatOrdersFeasibility(results) };
    },
  },
  {
    name: "order-delivery-latency",
    header: orderDeliveryHeader,
    run: async ({ supervisor, options }) => {
      const results = await runOrderDeliveryLatency({ supervisor, ...orderDeliverySettings(options) });
      return { results, markdown: formatOrderDeliveryLatency(results) };
    },
  },
  {
    name: "photo-intake",
    header: fileHeader,
    run: async ({ supervisor, options, resultsDir, photos }) => {
      const results = await runPhotoIntake({ supervisor, resultsDir, photos: await photos(), rounds: options.rounds, profile: options.profile });
      return { results, markdown: formatPhotoIntake(results) };
    },
  },
  {
    name: "field-resume",
    header: fileHeader,
    run: async ({ supervisor, options, photos }) => {
      const results = await runFieldResume({ supervisor, photos: await photos(), rounds: options.rounds });
      return { results, markdown: formatFieldResume(results) };
    },
  },
  {
    name: "mission-export",
    header: fileHeader,
    run: async ({ supervisor, options, resultsDir, photos }) => {
      const results = await runMissionExport({
        supervisor,
        resultsDir,
        photos: await photos(),
        rounds: options.rounds,
        images: options.inputs.exportImages,
        memorySizes: options.inputs.memorySizes,
        profile: options.profile,
      });
      return { results, markdown: formatMissionExport(results) };
    },
  },
  {
    name: "thumbnail-job",
    header: fileHeader,
    run: async ({ supervisor, options, resultsDir, photos }) => {
      const results = await runThumbnailJob({ supervisor, resultsDir, photos: await photos(), rounds: options.rounds, profile: options.profile });
      return { results, markdown: formatThumbnailJob(results) };
    },
  },
  {
    name: "verify-photo",
    header: verifyPhotoHeader,
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runVerifyPhoto({ supervisor, resultsDir, rounds: options.rounds, profile: options.profile });
      return { results, markdown: formatVerifyPhoto(results) };
    },
  },
  {
    name: "verify-vision",
    header: verifyVisionHeader,
    run: async ({ options }) => {
      const results = await runVerifyVision({ rounds: options.rounds });
      return { results, markdown: formatVerifyVision(results) };
    },
  },
  {
    name: "map-points",
    header: (options) => mapPointsHeader(mapPointsSettings(options)),
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runMapPoints({
        supervisor,
        resultsDir,
        build: options.build,
        profile: options.profile,
        ...(options.compareDir ? { compareDir: options.compareDir } : {}),
        ...mapPointsSettings(options),
      });
      return { results, markdown: formatMapPoints(results) };
    },
  },
  {
    name: "map-frame",
    header: (options) => mapFrameHeader({ rounds: options.rounds.rounds, warmupRounds: options.rounds.warmupRounds }),
    run: async ({ options }) => {
      const results = await runMapFrame({
        rounds: options.rounds.rounds,
        warmupRounds: options.rounds.warmupRounds,
        ...(options.compareDir ? { compareDir: options.compareDir } : {}),
      });
      return { results, markdown: formatMapFrame(results) };
    },
  },
  {
    name: "lighthouse-mission",
    header: (options) => lighthouseHeader(lighthouseSettings(options)),
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runLighthouseMission({
        supervisor,
        resultsDir,
        build: options.build,
        ...(options.compareDir ? { compareDir: options.compareDir } : {}),
        ...lighthouseSettings(options),
      });
      return { results, markdown: formatLighthouseMission(results) };
    },
  },
  {
    name: "first-load-js",
    header: firstLoadJsHeader,
    run: async ({ supervisor, options }) => {
      const results = await runFirstLoadJs({ supervisor, build: options.build });
      return { results, markdown: formatFirstLoadJs(results) };
    },
  },
  {
    name: "webhook-delivery",
    header: webhookDeliveryHeader,
    run: async ({ supervisor, options, resultsDir }) => {
      const results = await runWebhookDelivery({ supervisor, resultsDir, ...webhookDeliverySettings(options) });
      return { results, markdown: formatWebhookDelivery(results) };
    },
  },
];

function positiveNumber(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number, got "${value}"`);
  return n;
}

function positiveInteger(value: string | undefined, fallback: number, flag: string): number {
  const n = positiveNumber(value, fallback, flag);
  if (!Number.isInteger(n)) throw new Error(`${flag} needs a whole number, got "${value}"`);
  return n;
}

function sizeList(value: string | undefined, fallback: number[], flag: string, least = 2): number[] {
  if (value === undefined) return fallback;
  const sizes = value.split(",").map((part) => positiveInteger(part.trim(), 1, flag));
  if (sizes.length < least) throw new Error(`${flag} needs at least ${least} sizes, e.g. 100,1000`);
  return sizes.sort((a, b) => a - b);
}

function parseOptions(argv: string[]): RunOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      build: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      "skip-next": { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      rounds: { type: "string" },
      "warmup-rounds": { type: "string" },
      "round-seconds": { type: "string" },
      photos: { type: "string" },
      "export-images": { type: "string" },
      "memory-sizes": { type: "string" },
      "map-sizes": { type: "string" },
      "compare-dir": { type: "string" },
      "lighthouse-submissions": { type: "string" },
    },
  });
  if (values.build && values["no-build"]) throw new Error("--build and --no-build exclude each other");
  const unknown = positionals.filter((p) => !BENCHMARKS.some((b) => b.name === p));
  if (unknown.length) throw new Error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${BENCHMARKS.map((b) => b.name).join(", ")}`);
  return {
    load: {
      durationSeconds: positiveNumber(values.duration, 10, "--duration"),
      warmupSeconds: positiveNumber(values.warmup, 3, "--warmup"),
      connections: Math.round(positiveNumber(values.connections, 10, "--connections")),
    },
    build: values.build ? "always" : values["no-build"] ? "never" : "auto",
    skipNext: values["skip-next"],
    profile: values.profile,
    rounds: {
      warmupRounds: positiveInteger(values["warmup-rounds"], 1, "--warmup-rounds"),
      rounds: positiveInteger(values.rounds, 5, "--rounds"),
      minRoundSeconds: positiveNumber(values["round-seconds"], 1, "--round-seconds"),
    },
    inputs: {
      photos: positiveInteger(values.photos, 40, "--photos"),
      exportImages: positiveInteger(values["export-images"], 400, "--export-images"),
      memorySizes: sizeList(values["memory-sizes"], [100, 1000], "--memory-sizes"),
      mapSizes: sizeList(values["map-sizes"], MAP_SIZES, "--map-sizes", 1),
      lighthouseSubmissions: positiveInteger(values["lighthouse-submissions"], LIGHTHOUSE_SUBMISSIONS, "--lighthouse-submissions"),
    },
    selected: positionals,
    ...(values["compare-dir"] ? { compareDir: resolve(values["compare-dir"]) } : {}),
  };
}

function machine() {
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
function commandLine(argv: string[]): string {
  const args = argv.map((a) => (/^[\w./=-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
  if (process.env.npm_lifecycle_event === "bench") return `npm run bench${args ? ` -- ${args}` : ""}`;
  return `tsx scripts/bench/run.ts${args ? ` ${args}` : ""}`;
}

function header(info: MachineInfo, command: string, options: RunOptions, selected: Benchmark[]): string {
  const lines = new Set(selected.flatMap((b) => b.header(options, info)));
  return [
    "## Benchmarks",
    "",
    `- command: \`${command}\``,
    `- machine: ${info.cpus} × ${info.cpuModel}, ${info.memoryGiB} GiB, ${info.platform}; node ${info.node}; load average at start ${info.loadAverageAtStart.join(" ")}`,
    ...lines,
  ].join("\n");
}

function writeResults(resultsDir: string, name: string, payload: object): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}

/** Ctrl-C / kill: stop the children and remove temp dirs before exiting. */
function installSignalHandlers(supervisor: Supervisor): void {
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
  process.on("exit", () => supervisor.killAllNow());
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  const supervisor = new Supervisor();
  installSignalHandlers(supervisor);
  const info = machine();
  const command = commandLine(argv);
  const resultsDir = join(ROOT, "bench-results");
  const selected = options.selected.length ? BENCHMARKS.filter((b) => options.selected.includes(b.name)) : BENCHMARKS;
  console.log(header(info, command, options, selected));
  const photos = lazyPhotoSet(supervisor, options.inputs.photos, (m) => console.error(`[bench] photos: ${m}`));
  try {
    for (const benchmark of selected) {
      const started = new Date().toISOString();
      const outcome = await benchmark.run({ supervisor, options, resultsDir, photos });
      const file = writeResults(resultsDir, benchmark.name, {
        started,
        command,
        machine: info,
        ...outcome.results,
      });
      console.log(`\n${outcome.markdown}\n\nResults: ${file}`);
    }
  } finally {
    await supervisor.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
