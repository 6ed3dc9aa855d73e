// Benchmark runner (`npm run bench -- [benchmark…] [flags]`). Each benchmark is a sibling module
// exporting `benchmark = defineBenchmark({…})` (lib/benchmark.ts): its subject, baseline and report.
// The runner (lib/benchmark.ts) parses the flags once (lib/cli.ts), owns the child processes and
// temp dirs (so every exit path cleans up), prints Markdown to stdout and writes
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
//   --rounds interleaved rounds of --warmup + --duration seconds per family and target;
//   BENCH_DEMO=off runs the service without its demo (what the demo costs; the quote left out)
// api-walk: every GET route of both OpenAPI documents under `npm start` with the demo on, one call at
//   a time on the demo partner's data, vs bare sending the same bytes; --rounds rounds of 5 calls
//   per route and target (no goal: a route more than 25 ms over bare is named)
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
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: subjects that run in this process (webhook delivery) run as the service does
import { readFileSync } from "node:fs";
import { benchmark as apiGetMission } from "./api-get-mission";
import { benchmark as apiRoutes } from "./api-routes";
import { benchmark as apiWalk } from "./api-walk";
import { benchmark as fieldResume } from "./field-resume";
import { benchmark as firstLoadJs } from "./first-load-js";
import { reportFailure, runBenchmarks } from "./lib/benchmark";
import { benchmark as lighthouseMission } from "./lighthouse-mission";
import { benchmark as mapFrame } from "./map-frame";
import { benchmark as mapPoints } from "./map-points";
import { benchmark as missionExport } from "./mission-export";
import { benchmark as orderDeliveryLatency } from "./order-delivery-latency";
import { benchmark as ordersCreate } from "./orders-create";
import { benchmark as ordersFeasibility } from "./orders-feasibility";
import { benchmark as photoIntake } from "./photo-intake";
import { benchmark as thumbnailJob } from "./thumbnail-job";
import { benchmark as verifyPhoto } from "./verify-photo";
import { benchmark as verifyVision } from "./verify-vision";
import { benchmark as webhookDelivery } from "./webhook-delivery";

// New benchmarks: a sibling module exporting `benchmark = defineBenchmark({…})`, and one entry here.
const BENCHMARKS = [
  apiGetMission,
  apiRoutes,
  apiWalk,
  ordersCreate,
  ordersFeasibility,
  orderDeliveryLatency,
  photoIntake,
  fieldResume,
  missionExport,
  thumbnailJob,
  verifyPhoto,
  verifyVision,
  mapPoints,
  mapFrame,
  lighthouseMission,
  firstLoadJs,
  webhookDelivery,
];

/** The usage: this file's opening comment (one place for it), and the benchmarks' names. */
function usage(): string {
  const lines = readFileSync(new URL(import.meta.url), "utf8").split("\n");
  const comment = lines
    .slice(
      0,
      lines.findIndex((line) => !line.startsWith("//")),
    )
    .map((line) => line.replace(/^\/\/ ?/, ""));
  return [...comment, "", `Benchmarks: ${BENCHMARKS.map((b) => b.name).join(", ")}`].join("\n");
}

const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) console.log(usage());
else runBenchmarks(BENCHMARKS, argv).catch(reportFailure);
