// Benchmark: end-to-end latency of order fulfilment, from a zoomer's photo upload to the
// `photos.delivered` request arriving at the order's delivery URL — through the standalone API
// with its in-process workers (scripts/api-server.ts): multipart intake, the QA job (decode,
// derivatives, measurements), the orders worker's verify job (checks.ts), its deliver job (weather,
// the delivered record, mission and order bookkeeping) and the webhook worker signing and POSTing.
// On PGlite always; on PostgreSQL too when TEST_DATABASE_URL is set (a database of its own is
// created on that server and dropped after), as orders-create does.
//
// A latency has no baseline to divide by: there is no ratio and no goal here, only p50/p99 (and,
// from bursts of simultaneous uploads, what the pipeline sustains). Rounds repeat the measurement
// so the spread between them shows how much of a figure is the machine rather than the service.
//
// Set-up, all through the public interfaces (lib/service/http/tests/orders-fulfilment.api.test.ts
// is the same flow as a test): an Enterprise organisation and its API key (operator API), its
// order-delivery secret, one order of N locations × the "overview" angle (it faces no single
// point, so the camera's direction is not judged; no time_of_day, so any hour passes) whose
// delivery.webhook_url is a node:http receiver in this process on 127.0.0.1 (the service allows
// private targets here, as the API tests' harness does), a zoomer and its token, the order
// confirmed. Then per task: take it (not timed), upload one photo made at its location, and time
// upload start → `photos.delivered` for its mission (matched by data.mission_id, signature
// checked with the delivery secret).
import { cpus } from "node:os";
import { seededRandom } from "@/lib/demo/seeded-random";
import { defineBenchmark } from "./lib/benchmark";
import { postgresNote, type RunOptions } from "./lib/cli";
import { onEachDatabase, redactUrl } from "./lib/databases";
import { withReceiverAndService, type Arrival, type DeliveryReceiver } from "./lib/delivery-receiver";
import { readEventStamps, formatStageTable, summariseStages, type EventStamps, type StageSummary } from "./lib/event-stamps";
import { fmt } from "./lib/file-report";
import { percentiles as nearestPercentiles, table, type Percentiles } from "./lib/interleave";
import {
  LATENCY_COLUMNS,
  formatLatencyCells,
  runLatencyRound,
  collectPerRoundFigures,
  describePerRound,
  runRoundsWithinBudget,
  describeRound,
  formatSpreadOf as spread,
  warmUpOneByOne,
  type LatencyRound,
  type LatencySteps,
} from "./lib/latency-rounds";
import { ORDER_DELIVERY_STAGES, type Stage, type StageEvent } from "./lib/order-delivery-stages";
import { makeTaskPhotos, readOrderStatus, seedConfirmedOrder, takeTask, uploadTaskPhoto, type FieldTask, type TaskPhotos } from "./lib/order-fixture";
import type { Supervisor } from "./lib/processes";
import type { SeededZoomer } from "./lib/seed";
import { startApi, type ApiPostgres, type RunningApi } from "./lib/targets";
import { wallClockMs } from "./lib/wall-clock";

const DB_PREFIX = "bench_delivery_";

export interface OrderDeliverySettings {
  /** Measured rounds; each round: `sequential` tasks one at a time, then one burst. */
  rounds: number;
  /** Tasks per round uploaded one at a time (the next once the previous one was delivered). */
  sequential: number;
  /** Tasks per round uploaded at the same moment (one zoomer holds at most 6). */
  burst: number;
  /** Tasks done first and discarded (JIT, sharp's start, first queries). */
  warmup: number;
  /** Also measure on this PostgreSQL (a dedicated database is created on it). */
  databaseUrl?: string;
}

export interface OrderDeliveryOptions extends OrderDeliverySettings {
  supervisor: Supervisor;
  /** The run's photos, made by the first database pass (set-up, not timed). */
  photos?: TaskPhotos;
}

export const DEFAULT_SETTINGS = { sequential: 10, burst: 6, warmup: 3 } as const;
/** lib/service/assignments/field-assignments.ts: MAX_RESERVATIONS_PER_ZOOMER. */
const MAX_HELD = 6;
/** A delivery not seen within this long fails the run (the worker's polls are 0.5 s; a retry ≥ 1 min). */
const DELIVERY_TIMEOUT_MS = 30_000;
/**
 * One at a time, each upload starts after a pause drawn uniformly from [0, this) ms (seeded, not
 * timed). Without it the next upload would start a fixed time after the previous delivery, i.e. at
 * a fixed phase of the workers' idle 500 ms poll (which restarts when a job ends), and every
 * sample would hit the poll the same way; a zoomer's uploads come at any moment.
 */
const PAUSE_MS = 500;
/**
 * A round starts only while the database's run (start, set-up, warm-up, rounds) is younger than
 * this: about 90 s with all rounds on a machine at load 3–5, but two to three times that at load
 * 15; later rounds are then left out and the report says how many ran.
 */
const ROUNDS_BUDGET_MS = 100_000;

/** Under `npm run bench`: --rounds; PostgreSQL when TEST_DATABASE_URL is set. */
function settingsFrom(options: RunOptions): OrderDeliverySettings {
  const { databaseUrl } = options;
  return { ...DEFAULT_SETTINGS, rounds: options.rounds.rounds, ...(databaseUrl ? { databaseUrl } : {}) };
}

function header(options: RunOptions): string[] {
  const s = settingsFrom(options);
  return [
    `- order-delivery-latency: standalone API with its workers in a child process, receiver in the runner; ${s.warmup} warm-up tasks, then ${s.rounds} rounds of ` +
      `${s.sequential} uploads one at a time + a burst of ${s.burst} simultaneous uploads (rounds start within ${ROUNDS_BUDGET_MS / 1000} s of a database's start); latency = upload start → photos.delivered at the receiver; no baseline (a latency); ` +
      postgresNote(options),
  ];
}

// ---- measuring ------------------------------------------------------------------------------

interface Sample {
  missionId: string;
  /** Just before the upload's fetch (lib/wall-clock.ts ms). */
  startedAt: number;
  /** Upload start → 202. */
  uploadMs: number;
  /** Upload start → photos.delivered at the receiver: the figure. */
  totalMs: number;
  /** photos.delivered arrival (wall clock ms). */
  arrivedAt: number;
}

/** Upload (timed from just before fetch) and wait for the delivery of the task's mission. */
async function uploadAndWait(api: RunningApi, receiver: DeliveryReceiver, zoomer: SeededZoomer, task: FieldTask, photo: Buffer): Promise<Sample> {
  // Registered before the upload starts: the delivery cannot come before its waiter exists.
  const delivered = receiver.waitFor("photos.delivered", task.missionId, DELIVERY_TIMEOUT_MS);
  const startedAt = wallClockMs();
  const answer = await uploadTaskPhoto(api, zoomer, task, photo);
  const answeredAt = wallClockMs();
  if (answer.status !== 202) {
    delivered.catch(() => {});
    throw new Error(`upload for ${task.id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  const arrival = await delivered;
  return { missionId: task.missionId, startedAt, uploadMs: answeredAt - startedAt, totalMs: arrival.at - startedAt, arrivedAt: arrival.at };
}

// ---- where the time goes: the service's own event stamps ------------------------------------

const stageSummary = (samples: Sample[], stamps: EventStamps<StageEvent>) =>
  summariseStages(
    samples.map((s) => ({ missionId: s.missionId, startedAt: s.startedAt, endedAt: s.arrivedAt })),
    stamps,
    ORDER_DELIVERY_STAGES,
    round1,
  );

const round1 = (n: number) => Math.round(n * 10) / 10;

const percentiles = (values: number[]) => nearestPercentiles(values, round1);

export interface RoundResult extends LatencyRound<Sample> {
  sequential: { totalMs: Percentiles; uploadMs: Percentiles; samples: Sample[] };
}

export interface DatabaseResult {
  database: "PGlite" | "PostgreSQL";
  detail: string;
  orderId: string;
  tasks: number;
  rounds: RoundResult[];
  /** All sequential samples of all rounds together. */
  sequentialMs: Percentiles;
  sequentialUploadMs: Percentiles;
  burstMs: Percentiles;
  /** From the service's event stamps (read after the run), one at a time and in bursts. */
  stages: { sequential: StageSummary<Stage>[]; burst: StageSummary<Stage>[]; missing: number };
  /** Each round's p50 and p99 (= its max at ≤ 100 samples), one at a time; the bursts' p50 and deliveries/s. */
  perRound: { p50: number[]; p99: number[]; burstP50: number[]; burstDeliveriesPerSecond: number[] };
  checks: {
    deliveries: number;
    expected: number;
    duplicates: number;
    badSignatures: number;
    notApproved: number;
    orderStatus: string;
    otherEvents: Record<string, number>;
  };
  seconds: number;
}

const log = (database: string, message: string) => console.error(`[bench] order-delivery-latency ${database}: ${message}`);

/** A task and the zoomer who takes and uploads it. */
interface Held {
  task: FieldTask;
  zoomer: SeededZoomer;
}

/** One round: `settings.sequential` tasks one at a time by the first zoomer, then a burst, each burst zoomer holding at most MAX_HELD. */
async function runRound(
  steps: LatencySteps<Held, Sample>,
  zoomers: SeededZoomer[],
  tasks: FieldTask[],
  settings: OrderDeliverySettings,
  pause: () => number,
): Promise<RoundResult> {
  const zoomer = zoomers[0] as SeededZoomer;
  const sequential = tasks.slice(0, settings.sequential).map((task) => ({ task, zoomer }));
  const burstTasks = tasks.slice(settings.sequential, settings.sequential + settings.burst);
  const burst = burstTasks.map((task, i) => ({ task, zoomer: zoomers[1 + Math.floor(i / MAX_HELD)] ?? zoomer }));
  const round = await runLatencyRound(steps, sequential, burst, pause, percentiles);
  const { totalMs, samples } = round.sequential;
  return { ...round, sequential: { totalMs, uploadMs: percentiles(samples.map((s) => s.uploadMs)), samples } };
}

const taskCount = (s: OrderDeliverySettings) => s.warmup + s.rounds * (s.sequential + s.burst);

interface Measured {
  orderId: string;
  count: number;
  rounds: RoundResult[];
  checks: DatabaseResult["checks"];
}

/** Set-up, warm-up and the rounds against a running API; the checks read through the API. */
async function measureOn(api: RunningApi, receiver: DeliveryReceiver, options: OrderDeliveryOptions, database: string, begun: number): Promise<Measured> {
  const perRound = options.sequential + options.burst;
  const count = taskCount(options);
  const zoomerCount = 1 + Math.ceil(options.burst / MAX_HELD);
  const prepared = await seedConfirmedOrder(api, receiver, count, zoomerCount);
  log(database, `order ${prepared.orderId}: ${count} locations × overview, confirmed`);
  const set = await makeTaskPhotos(count, options.photos);
  options.photos = set;
  const photos = new Map(prepared.tasks.map((t) => [t.id, set.byLocation.get(t.locationId) as Buffer]));
  const [first] = prepared.zoomers;
  if (!first) throw new Error("no zoomer");
  // Take the task (not timed), upload its photo and wait for its delivery.
  const steps: LatencySteps<Held, Sample> = {
    prepare: async (h) => {
      await takeTask(api, h.zoomer, h.task);
    },
    measure: (h) => uploadAndWait(api, receiver, h.zoomer, h.task, photos.get(h.task.id) as Buffer),
  };
  const warmup = prepared.tasks.slice(0, options.warmup).map((task) => ({ task, zoomer: first }));
  await warmUpOneByOne(steps, warmup, (s) => log(database, `warm-up: ${fmt(s.totalMs)} ms`));
  const random = seededRandom(20261124);
  const pause = () => Math.floor(random() * PAUSE_MS);
  const budget = {
    begun,
    budgetMs: ROUNDS_BUDGET_MS,
    onBudgetSpent: (ran: number) => log(database, `time budget (${ROUNDS_BUDGET_MS / 1000} s) spent: ${ran} of ${options.rounds} rounds`),
  };
  const rounds = await runRoundsWithinBudget(options.rounds, budget, async (r) => {
    const from = options.warmup + r * perRound;
    const round = await runRound(steps, prepared.zoomers, prepared.tasks.slice(from, from + perRound), options, pause);
    log(database, `round ${r + 1}/${options.rounds}: ${describeRound(round)}`);
    return round;
  });
  // Checks: every mission delivered once, signed, approved; the order fulfilled (when every round ran).
  const orderStatus = await readOrderStatus(api, prepared);
  const delivered = receiver.tally("photos.delivered");
  const notApproved = receiver.arrivals.filter((a: Arrival) => a.type === "photos.delivered" && (!a.approved || a.photos !== 1)).length;
  return {
    orderId: prepared.orderId,
    count,
    rounds,
    checks: {
      deliveries: delivered.count,
      expected: options.warmup + rounds.length * perRound,
      duplicates: delivered.duplicates,
      badSignatures: delivered.badSignatures,
      notApproved,
      orderStatus,
      otherEvents: delivered.otherEvents,
    },
  };
}

async function measureDatabase(
  options: OrderDeliveryOptions,
  database: DatabaseResult["database"],
  detail: string,
  postgres: ApiPostgres | undefined,
): Promise<DatabaseResult> {
  const begun = performance.now();
  // The photos are made while the service starts in its own process (set-up on two cores).
  const { service: api, result: measured } = await withReceiverAndService(
    (env) => startApi(options.supervisor, "standalone", { ...(postgres ? { postgres } : {}), env }),
    () => makeTaskPhotos(taskCount(options), options.photos),
    (api, receiver, photos) => {
      options.photos = photos;
      return measureOn(api, receiver, options, database, begun);
    },
  );
  const stamps = await readEventStamps(
    postgres ? { kind: "postgres", url: postgres.url } : { kind: "pglite", dataDir: api.dataDir },
    ORDER_DELIVERY_STAGES.flatMap((s) => (s.until ? [s.until] : [])),
  );
  const { rounds } = measured;
  const sequential = rounds.flatMap((r) => r.sequential.samples);
  const bursts = rounds.flatMap((r) => r.burst.samples);
  const seqStages = stageSummary(sequential, stamps);
  const burstStages = stageSummary(bursts, stamps);
  return {
    database,
    detail,
    orderId: measured.orderId,
    tasks: measured.count,
    rounds,
    sequentialMs: percentiles(sequential.map((s) => s.totalMs)),
    sequentialUploadMs: percentiles(sequential.map((s) => s.uploadMs)),
    burstMs: percentiles(bursts.map((s) => s.totalMs)),
    stages: { sequential: seqStages.stages, burst: burstStages.stages, missing: seqStages.missing + burstStages.missing },
    perRound: collectPerRoundFigures(rounds),
    checks: measured.checks,
    seconds: Math.round((performance.now() - begun) / 100) / 10,
  };
}

export interface OrderDeliveryResults {
  benchmark: "order-delivery-latency";
  settings: Omit<OrderDeliverySettings, "databaseUrl"> & { databaseUrl?: string };
  databases: DatabaseResult[];
}

export async function runOrderDeliveryLatency(options: OrderDeliveryOptions): Promise<OrderDeliveryResults> {
  const databases = await onEachDatabase(options.databaseUrl, DB_PREFIX, (database, detail, postgres) => measureDatabase(options, database, detail, postgres));
  const { rounds, sequential, burst, warmup, databaseUrl } = options;
  return {
    benchmark: "order-delivery-latency",
    settings: { rounds, sequential, burst, warmup, ...(databaseUrl ? { databaseUrl: redactUrl(databaseUrl) } : {}) },
    databases,
  };
}

// ---- report ---------------------------------------------------------------------------------

function checksText(d: DatabaseResult): string {
  const c = d.checks;
  const problems = [
    c.deliveries !== c.expected ? `${c.deliveries} photos.delivered for ${c.expected} tasks` : "",
    c.duplicates ? `${c.duplicates} duplicates` : "",
    c.badSignatures ? `**${c.badSignatures} requests with a wrong signature**` : "",
    c.notApproved ? `**${c.notApproved} deliveries not one approved photo**` : "",
    c.orderStatus !== "fulfilled" && c.expected === d.tasks ? `order ${c.orderStatus}, not fulfilled` : "",
  ].filter(Boolean);
  const others = Object.entries(c.otherEvents)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const done = c.expected === d.tasks ? "order fulfilled" : `order ${c.orderStatus} (${d.rounds.length} rounds ran: the time budget)`;
  return `${problems.length ? problems.join("; ") : `${c.deliveries}/${c.expected} delivered once, all signatures valid, every delivery one approved photo, ${done}`}; other requests to the delivery URL: ${others || "none"}`;
}

export function formatOrderDeliveryLatency(results: OrderDeliveryResults): string {
  const s = results.settings;
  const rows = results.databases.flatMap((d) => {
    const seq = d.sequentialMs;
    const burst = d.burstMs;
    return [
      [d.database, "one at a time", ...formatLatencyCells(seq, true), `p50 ${spread(d.perRound.p50)}; max ${spread(d.perRound.p99)}`, "–"],
      [d.database, `bursts of ${s.burst}`, ...formatLatencyCells(burst), `p50 ${spread(d.perRound.burstP50)}`, spread(d.perRound.burstDeliveriesPerSecond, 2)],
    ];
  });
  return [
    "### order-delivery-latency: photo upload → photos.delivered at the order's delivery URL",
    "",
    "No baseline and no ratio: a latency is reported as it is (p50/p99), with the spread over rounds.",
    "",
    `Method: standalone API (scripts/api-server.ts, NODE_ENV=production, its QA, orders and webhook workers in the same process; WEBHOOK_ALLOW_PRIVATE_TARGETS=true; WEATHER_URL = a stub in the runner answering at once), ` +
      `receiver (node:http, 200 at once) in the runner process, ${cpus().length} CPUs shared by all. One order of ${results.databases[0]?.tasks ?? "?"} locations × angle overview, no time_of_day, delivery.webhook_url = the receiver, confirmed with the test card; ` +
      `1600×1200 JPEGs from makePhoto taken at each location (made once per run, before any clock starts). ${s.warmup} warm-up tasks discarded, then ${s.rounds} rounds (a round starts only within ${ROUNDS_BUDGET_MS / 1000} s of the database run's start: ${results.databases.map((d) => `${d.database} ran ${d.rounds.length}`).join(", ")}), each ${s.sequential} tasks one at a time ` +
      `(take, a random pause of 0–${PAUSE_MS} ms so uploads do not keep one phase of the workers' 500 ms idle poll — neither timed —, upload, wait for its delivery, next) and then a burst of ${s.burst} tasks taken first and uploaded together. Latency: just before the upload's fetch → ` +
      "the photos.delivered request for that mission arriving at the receiver (same process, same clock: lib/wall-clock.ts). Percentiles are nearest-rank over all samples of the mode; " +
      "with ≤ 100 samples the p99 is the slowest or second-slowest one. Burst deliveries/s = burst size ÷ (first upload start → last delivery).",
    "",
    ...table(["database", "mode", ...LATENCY_COLUMNS.header, "per round: median (min–max) ms", "deliveries/s (bursts)"], `ll${LATENCY_COLUMNS.align}lr`, rows),
    "",
    "Where the time goes (the service's own event stamps, read from its database after the run; recordEvent stamps each in its transaction with new Date(), the runner's clock is the same system clock): " +
      "median per stage (p90) in ms, one at a time | in bursts.",
    "",
    ...formatStageTable(
      ORDER_DELIVERY_STAGES,
      results.databases.flatMap((d) => [
        { title: `${d.database} one at a time`, summaries: d.stages.sequential },
        { title: `${d.database} bursts`, summaries: d.stages.burst },
      ]),
    ),
    `| (upload → 202, inside the first stage) | ${results.databases.map((d) => `${fmt(d.sequentialUploadMs.p50)} (${fmt(d.sequentialUploadMs.p90)}) | –`).join(" | ")} |`,
    "",
    ...results.databases.flatMap((d) => [
      `${d.database}: ${d.detail}; ${d.seconds} s for the whole database run (start, set-up, photos, warm-up, rounds). Checks: ${checksText(d)}${d.stages.missing ? `; **${d.stages.missing} samples without all stage events**` : ""}. ` +
        describePerRound(d.rounds),
      "",
    ]),
    ...(s.databaseUrl ? [] : ["PostgreSQL: not measured (set TEST_DATABASE_URL, e.g. from `bash scripts/ci/start-postgres.sh <dir>`)."]),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "order-delivery-latency",
  header,
  run: ({ supervisor, options }) => runOrderDeliveryLatency({ supervisor, ...settingsFrom(options) }),
  format: formatOrderDeliveryLatency,
});
