// Benchmark: webhook deliveries through the service's full path — events persisted by recordEvent
// with their delivery rows, claimed by the webhook worker (FOR UPDATE SKIP LOCKED, lease, 8 at a
// time in parallel), signed, POSTed by executeWebhookCall, the attempt logged and the delivery
// settled — against a plain concurrent fetch loop POSTing the same bodies with the same HMAC
// header to the same receiver, in the same run. The receiver is a child process
// (webhook-receiver.ts) that checks a sample of signatures.
// Goal (issue): full path ≥ 0.5 × the fetch loop's deliveries/s. Also: enqueue-to-delivered p50
// and p99 at a steady rate. Reported, never turned into a pass/fail of the test suite.
import { cpus } from "node:os";
import { USER_AGENT } from "@/lib/service/webhooks/execute-webhook-call";
import { signPayload } from "@/lib/service/webhooks/sign-payload";
import { redactUrl } from "./lib/databases";
import { fmt, profileSection, ratioTable, type RatioRow } from "./lib/file-report";
import { forceGc } from "./lib/gc";
import { profileInProcess, type InProcessProfile } from "./lib/in-process-profile";
import type { Supervisor } from "./lib/processes";
import { interleave, median, round3, spread } from "./lib/interleave";
import { defineBenchmark } from "./lib/benchmark";
import { postgresNote, type RunOptions } from "./lib/cli";
import { wallClockMs } from "./lib/wall-clock";
import { checkReceiver, receiverProblems, startReceiver, type Receiver } from "./lib/webhook-receiver-client";
import { roundsChecks, settledPass, type Pass } from "./lib/webhook-pass";
import { measureSteady, steadyRow, STEADY_TABLE_HEADER, type SteadyResult } from "./lib/webhook-steady-rate";
import { enqueueBatch, EVENT_TYPE, sentDeliveries, withBenchService, type BenchService, type SentDelivery } from "./lib/webhook-service";

export const GOAL = { minThroughputRatio: 0.5 } as const;
/** lib/service/worker/background.ts claims up to 8 deliveries and sends them in parallel. */
export const SERVICE_PARALLELISM = 8;
/** The receiver checks the signature of every this-many-th request (the first included). */
const SAMPLE_EVERY = 10;
/** Warm-up rounds (JIT, PGlite's caches, the receiver) need not be full size. */
const WARMUP_EVENTS_MAX = 500;

export interface WebhookDeliverySettings {
  /** Events (one delivery each) per throughput round. */
  events: number;
  /** Events per enqueue transaction in the throughput rounds. */
  batchSize: number;
  rounds: number;
  warmupRounds: number;
  /** The fetch loop's concurrency: the service's effective parallelism. */
  concurrency: number;
  /** Steady-rate part: events per second, one transaction each, for `steadySeconds`. */
  rate: number;
  steadySeconds: number;
  /** Also run the throughput part on this PostgreSQL (a dedicated database is created on it). */
  databaseUrl?: string;
  profile: boolean;
}

export interface WebhookDeliveryOptions extends WebhookDeliverySettings {
  supervisor: Supervisor;
  resultsDir: string;
}

export const DEFAULT_SETTINGS = {
  events: 2000,
  batchSize: 100,
  concurrency: SERVICE_PARALLELISM,
  rate: 50,
} as const;

/**
 * Settings under `npm run bench`, whose flags are shared: --rounds/--warmup-rounds are the
 * rounds, --duration the steady-rate seconds, --profile adds a profiled round; PostgreSQL when
 * TEST_DATABASE_URL is set. Rate, event count and --database-url: webhook-delivery-cli.ts.
 */
function settingsFrom(options: RunOptions): WebhookDeliverySettings {
  const { rounds, load, profile, databaseUrl } = options;
  return {
    ...DEFAULT_SETTINGS,
    rounds: rounds.rounds,
    warmupRounds: rounds.warmupRounds,
    steadySeconds: load.durationSeconds,
    profile,
    ...(databaseUrl ? { databaseUrl } : {}),
  };
}

function header(options: RunOptions): string[] {
  const s = settingsFrom(options);
  return [
    `- webhook-delivery: service runtime in the runner process (worker: claim 8, parallel), receiver in a child process; ` +
      `${s.warmupRounds} warm-up + ${s.rounds} measured rounds of ${s.events} events, each round the full path, the fetch loop (concurrency ${s.concurrency}), then the worker alone (diagnostic); ` +
      `steady rate ${s.rate}/s for ${s.steadySeconds} s (--duration); ${postgresNote(options)}`,
  ];
}

// ---- results --------------------------------------------------------------------------------

export interface ThroughputRound {
  subject: Pass;
  baseline: Pass;
  /** subject deliveries/s ÷ baseline deliveries/s of this round. */
  ratio: number;
  /**
   * Diagnostic: the worker's share alone — N events committed in one transaction before the
   * clock starts (its time in enqueueSeconds, not in seconds), then woken until all settled.
   */
  workerOnly: Pass;
  workerOnlyRatio: number;
}

export interface ThroughputResult {
  database: string;
  databaseDetail: string;
  events: number;
  batchSize: number;
  warmupEvents: number;
  rounds: ThroughputRound[];
  subjectMedianPerSecond: number;
  baselineMedianPerSecond: number;
  workerOnlyMedianPerSecond: number;
  /** Diagnostic, no goal: worker only ÷ fetch loop, median of the per-round ratios. */
  workerOnlyRatio: number;
  /** Median over rounds of the paired ratio; null when a pass had problems. */
  ratio: { value: number | null; min: number; max: number; goal: number; meetsGoal: boolean | null };
  loadAverage1m: number[];
}

export interface WebhookDeliveryResults {
  benchmark: "webhook-delivery";
  goal: string;
  settings: WebhookDeliverySettings;
  throughput: ThroughputResult[];
  steady: SteadyResult[];
  profile?: InProcessProfile;
}

// ---- helpers --------------------------------------------------------------------------------

const log = (message: string) => console.error(`[bench] webhook-delivery: ${message}`);

// ---- the variants ---------------------------------------------------------------------------

interface SubjectOutcome {
  pass: Pass;
  sent: SentDelivery[];
  secret: string;
}

/** N events enqueued in batches (timed from the first enqueue) until all N are settled as succeeded. */
async function subjectPass(service: BenchService, receiver: Receiver, events: number, batchSize: number): Promise<SubjectOutcome> {
  const { ctx } = service.runtime;
  const endpoint = await service.newEndpoint(receiver.hookUrl);
  await receiver.reset(endpoint.secret, SAMPLE_EVERY);
  const expected = new Set<string>();
  forceGc(); // earlier garbage must not be collected on this pass's clock
  const started = wallClockMs();
  for (let done = 0; done < events; done += batchSize) {
    const ids = await enqueueBatch(ctx, endpoint.orgId, service.eventData, Math.min(batchSize, events - done));
    for (const id of ids) expected.add(id);
    ctx.wakeWorkers(); // what the service does after committing work for the workers
  }
  const enqueueSeconds = (wallClockMs() - started) / 1000;
  return {
    pass: await settledPass(service, receiver, { endpointId: endpoint.endpointId, expected, started, enqueueSeconds }),
    sent: await sentDeliveries(ctx, endpoint.endpointId),
    secret: endpoint.secret,
  };
}

/** Diagnostic: N events committed in one transaction (not timed), then the worker alone until all settled. */
async function workerOnlyPass(service: BenchService, receiver: Receiver, events: number): Promise<Pass> {
  const { ctx } = service.runtime;
  const endpoint = await service.newEndpoint(receiver.hookUrl);
  await receiver.reset(endpoint.secret, SAMPLE_EVERY);
  const before = wallClockMs();
  // One transaction: the worker (polling every 500 ms) sees none of them before the clock starts.
  const expected = new Set(await enqueueBatch(ctx, endpoint.orgId, service.eventData, events));
  forceGc();
  const started = wallClockMs();
  ctx.wakeWorkers();
  return settledPass(service, receiver, { endpointId: endpoint.endpointId, expected, started, enqueueSeconds: (started - before) / 1000 });
}

/** One POST as a plain client would send it: same body, same header set, the same HMAC as the service computes. */
async function plainPost(url: string, secret: string, delivery: SentDelivery): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "x-svc-signature": signPayload(secret, delivery.payload),
      "x-svc-event-id": delivery.eventId,
      "x-svc-event": EVENT_TYPE,
      "x-svc-timestamp": String(Math.floor(Date.now() / 1000)),
      "x-svc-delivery-id": delivery.id,
      "x-svc-attempt": String(delivery.attempt),
    },
    body: delivery.payload,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`the receiver answered ${response.status} to the fetch loop`);
}

/** The same bodies through `concurrency` loops of fetch (undici, keep-alive), nothing persisted. */
async function baselinePass(receiver: Receiver, sent: SentDelivery[], secret: string, concurrency: number): Promise<Pass> {
  await receiver.reset(secret, SAMPLE_EVERY);
  let next = 0;
  const loop = async () => {
    for (let delivery = sent[next++]; delivery; delivery = sent[next++]) await plainPost(receiver.hookUrl, secret, delivery);
  };
  forceGc();
  const started = wallClockMs();
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (wallClockMs() - started) / 1000;
  const receiverCheck = checkReceiver(await receiver.records(), new Set(sent.map((d) => d.eventId)));
  return {
    deliveries: sent.length,
    seconds: round3(seconds),
    perSecond: round3(sent.length / seconds),
    receiver: receiverCheck,
    problems: receiverProblems(receiverCheck),
  };
}

async function pairedRound(service: BenchService, receiver: Receiver, settings: WebhookDeliverySettings, events: number): Promise<ThroughputRound> {
  // The fetch loop needs the full path's bodies, so the full path goes first in every round.
  const subject = await subjectPass(service, receiver, events, settings.batchSize);
  const baseline = await baselinePass(receiver, subject.sent, subject.secret, settings.concurrency);
  const workerOnly = await workerOnlyPass(service, receiver, events);
  return {
    subject: subject.pass,
    baseline,
    ratio: round3(subject.pass.perSecond / baseline.perSecond),
    workerOnly,
    workerOnlyRatio: round3(workerOnly.perSecond / baseline.perSecond),
  };
}

function summariseThroughput(
  service: BenchService,
  settings: WebhookDeliverySettings,
  warmupEvents: number,
  rounds: ThroughputRound[],
  load: number[],
): ThroughputResult {
  const ratios = spread(rounds.map((r) => r.ratio));
  const clean = rounds.every((r) => [r.subject, r.baseline, r.workerOnly].every((p) => p.problems.length === 0));
  const value = clean ? ratios.value : null;
  return {
    database: service.label,
    databaseDetail: service.detail,
    events: settings.events,
    batchSize: settings.batchSize,
    warmupEvents,
    rounds,
    subjectMedianPerSecond: round3(median(rounds.map((r) => r.subject.perSecond))),
    baselineMedianPerSecond: round3(median(rounds.map((r) => r.baseline.perSecond))),
    workerOnlyMedianPerSecond: round3(median(rounds.map((r) => r.workerOnly.perSecond))),
    workerOnlyRatio: round3(median(rounds.map((r) => r.workerOnlyRatio))),
    ratio: { value, min: ratios.min, max: ratios.max, goal: GOAL.minThroughputRatio, meetsGoal: value === null ? null : value >= GOAL.minThroughputRatio },
    loadAverage1m: load,
  };
}

/** The rounds: in each, the full path first (the fetch loop sends its bodies), then the fetch loop, then the worker alone. */
async function measureThroughput(service: BenchService, receiver: Receiver, settings: WebhookDeliverySettings): Promise<ThroughputResult> {
  const warmupEvents = Math.min(settings.events, WARMUP_EVENTS_MAX);
  const measured = await interleave({
    rounds: settings.rounds,
    warmupRounds: settings.warmupRounds,
    targets: [{ name: "round" }],
    sample: (_, turn) => pairedRound(service, receiver, settings, turn.warmup ? warmupEvents : settings.events),
    onSample: (_, turn, round) =>
      log(
        turn.warmup
          ? `${service.label}: warm-up ${turn.round + 1}: full path ${fmt(round.subject.perSecond)}/s, fetch loop ${fmt(round.baseline.perSecond)}/s`
          : `${service.label}: round ${turn.round + 1}/${settings.rounds}: full path ${fmt(round.subject.perSecond)}/s, fetch loop ${fmt(round.baseline.perSecond)}/s, ` +
              `ratio ${fmt(round.ratio, 3)}; worker only ${fmt(round.workerOnly.perSecond)}/s`,
      ),
  });
  return summariseThroughput(service, settings, warmupEvents, measured.of("round"), measured.loadAverage1m);
}

/** The steady-rate part (lib/webhook-steady-rate.ts) at the run's rate and duration. */
function steadyRate(service: BenchService, receiver: Receiver, settings: WebhookDeliverySettings, woken: boolean): Promise<SteadyResult> {
  log(
    `steady ${settings.rate}/s for ${settings.steadySeconds} s, ${woken ? "waking the worker after each commit" : "not waking the worker (it polls every 500 ms)"}`,
  );
  return measureSteady(service, receiver, { rate: settings.rate, seconds: settings.steadySeconds, woken, sampleEvery: SAMPLE_EVERY });
}

// ---- the run --------------------------------------------------------------------------------

async function profiledRound(service: BenchService, receiver: Receiver, options: WebhookDeliveryOptions): Promise<InProcessProfile> {
  log(`${service.label}: one full-path round of ${options.events} events under the profiler`);
  return profileInProcess(options.resultsDir, "webhook-delivery-full-path", async () => {
    await subjectPass(service, receiver, options.events, options.batchSize);
  });
}

/** The settings as written to the results: no supervisor, no password of the database URL. */
function reportedSettings(options: WebhookDeliveryOptions): WebhookDeliverySettings {
  const { events, batchSize, rounds, warmupRounds, concurrency, rate, steadySeconds, databaseUrl, profile } = options;
  const settings = { events, batchSize, rounds, warmupRounds, concurrency, rate, steadySeconds, profile };
  return databaseUrl ? { ...settings, databaseUrl: redactUrl(databaseUrl) } : settings;
}

export async function runWebhookDelivery(options: WebhookDeliveryOptions): Promise<WebhookDeliveryResults> {
  const { supervisor } = options;
  const receiver = await startReceiver(supervisor);
  const throughput: ThroughputResult[] = [];
  const steady: SteadyResult[] = [];
  let profile: InProcessProfile | undefined;
  await withBenchService({ kind: "pglite" }, supervisor.tempDir("webhook-data"), async (service) => {
    throughput.push(await measureThroughput(service, receiver, options));
    steady.push(await steadyRate(service, receiver, options, true));
    // What a producer in another process sees (it cannot wake this process's worker).
    steady.push(await steadyRate(service, receiver, options, false));
    if (options.profile) profile = await profiledRound(service, receiver, options);
  });
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    await withBenchService({ kind: "postgres", url }, supervisor.tempDir("webhook-data"), async (service) => {
      throughput.push(await measureThroughput(service, receiver, options));
    });
  }
  await receiver.process.stop();
  return {
    benchmark: "webhook-delivery",
    goal: `full path ≥ ${GOAL.minThroughputRatio} × the plain fetch loop's deliveries/s`,
    settings: reportedSettings(options),
    throughput,
    steady,
    ...(profile ? { profile } : {}),
  };
}

// ---- report ---------------------------------------------------------------------------------

function throughputRows(t: ThroughputResult): string[] {
  const list = (pick: (r: ThroughputRound) => number) => t.rounds.map((r) => fmt(pick(r))).join(", ");
  const enqueue = median(t.rounds.map((r) => r.subject.enqueueSeconds ?? 0));
  const row = (variant: string, perSecond: number, pick: (r: ThroughputRound) => Pass, note = "") =>
    `| ${t.database} | ${variant} | ${fmt(perSecond)} | ${list((r) => pick(r).perSecond)} | ${note}${roundsChecks(t.rounds, pick)} |`;
  return [
    row("full path (persist, sign, send, log)", t.subjectMedianPerSecond, (r) => r.subject, `enqueue ${fmt(enqueue, 2)} s of the round (median); `),
    row(`plain fetch loop, concurrency ${SERVICE_PARALLELISM}, keep-alive`, t.baselineMedianPerSecond, (r) => r.baseline),
    row("diagnostic: worker only (events committed before the clock starts)", t.workerOnlyMedianPerSecond, (r) => r.workerOnly),
  ];
}

function ratioRows(t: ThroughputResult): RatioRow[] {
  const workerOnly = t.rounds.map((x) => x.workerOnlyRatio);
  return [
    { ...t.ratio, name: `full path / fetch loop, ${t.database}` },
    { name: `worker only / fetch loop, ${t.database}`, value: t.workerOnlyRatio, min: Math.min(...workerOnly), max: Math.max(...workerOnly) },
  ];
}

export function formatWebhookDelivery(results: WebhookDeliveryResults): string {
  const s = results.settings;
  const first = results.throughput[0];
  return [
    "### Webhook delivery: full path (persist, sign, send, log) vs a plain concurrent fetch loop",
    "",
    `Method: service runtime in the runner process (createRuntime with its worker: claim limit 8, parallel, 500 ms idle poll; production settings, private targets allowed), ` +
      `receiver (node:http, 200 at once) in a child process, ${cpus().length} CPUs shared by all. Each round: ${fmt(s.events)} mission.created events enqueued with recordEvent, ` +
      `${s.batchSize} per transaction, ctx.wakeWorkers() after each commit; timed from the first enqueue to all ${fmt(s.events)} deliveries seen \`succeeded\` in webhook_deliveries (polled every 20 ms once the receiver has them all), ` +
      `enqueue included. Then the fetch loop POSTs the same ${fmt(s.events)} bodies (${first ? "the exact stored payloads" : ""}) with the same header set and an HMAC computed per request, ` +
      `${s.concurrency} concurrent. Diagnostic, not in the goal: the worker alone, on ${fmt(s.events)} events committed in one transaction before its clock starts. ${s.warmupRounds} warm-up round(s) of ${fmt(first?.warmupEvents ?? 0)} events discarded, ${s.rounds} measured; figures are medians, ratio = median of the per-round ratios (min–max). ` +
      `The receiver checks the HMAC of every ${SAMPLE_EVERY}th request and that its body names the event in X-SVC-Event-Id.`,
    "",
    "| database | variant | deliveries/s (median) | rounds | checks |",
    "|---|---|---:|---|---|",
    ...results.throughput.flatMap(throughputRows),
    "",
    ...ratioTable(results.throughput.flatMap(ratioRows)),
    "",
    ...results.throughput.map(
      (t) =>
        `${t.database}: ${t.databaseDetail}; 1-min load average after each round ${t.loadAverage1m.map((l) => fmt(l, 2)).join(", ")} (on ${cpus().length} CPUs).`,
    ),
    ...(s.databaseUrl ? [] : ["", "PostgreSQL: not measured (set TEST_DATABASE_URL, or `--database-url` with webhook-delivery-cli.ts)."]),
    "",
    `Steady rate on ${first?.database ?? "PGlite"}: one event per transaction on an absolute schedule; enqueue time = commit of its transaction, delivered = request at the receiver ` +
      "(both on a shared sub-ms wall clock, scripts/bench/lib/wall-clock.ts).",
    "",
    ...STEADY_TABLE_HEADER,
    ...results.steady.map(steadyRow),
    ...profileSection("Full path round", results.profile),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "webhook-delivery",
  header,
  run: ({ supervisor, options, resultsDir }) => runWebhookDelivery({ supervisor, resultsDir, ...settingsFrom(options) }),
  format: formatWebhookDelivery,
});
