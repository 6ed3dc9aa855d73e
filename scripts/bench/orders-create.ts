// Benchmark: POST /api/orders/v1/orders with an organisation API key and a fresh Idempotency-Key
// (a UUID) per request, through the full stack of the standalone API (scripts/api-server.ts:
// auth by key digest, JSON body and schema, idempotency claim and store, quote, the order and
// its locations in one transaction) against two baselines in the same run:
// - the minimal create handler (minimal-create-server.ts): the same body validated by the same
//   CreateOrderSchema and written as order + locations + one event row in one transaction, same
//   database kind and driver — what a create must cost. Goal (issue 22): subject ≥ 0.5 × its
//   throughput and p99 ≤ 2 × its p99.
// - the bare node:http server of api-get-mission answering the captured 201 bytes (the old
//   baseline, goal ≥ 0.3; reported for comparison).
// The targets take turns over several rounds (the order rotating), as the other benchmarks do; a
// ratio is the median of the per-round ratios, with their spread. On PGlite always; on PostgreSQL
// too when TEST_DATABASE_URL is set (a database of its own is created on that server and dropped
// after; the minimal handler writes into it under an organisation of its own).
// Reported, never turned into a pass/fail of the test suite.
import { randomUUID } from "node:crypto";
import { cpus } from "node:os";
import { orderBody } from "@/lib/service/http/tests/orders-client";
import { captureResponse, type CapturedResponse } from "./lib/http";
import { measure, type LoadSettings, type Measurement, type RequestShape } from "./lib/load";
import type { Supervisor } from "./lib/processes";
import { onEachDatabase, redactUrl } from "./lib/databases";
import { fmt, interleave, median, pairedRatio, round3, type Spread } from "./lib/interleave";
import { defineBenchmark } from "./lib/benchmark";
import { postgresNote, type RunOptions } from "./lib/cli";
import { profileApi, profileReport, type ServerProfile } from "./lib/server-profile";
import { seedOrderPartner, type SeededOrderPartner } from "./lib/seed";
import { startApi, startBare, startMinimalCreate, type ApiPostgres, type RunningApi, type RunningTarget } from "./lib/targets";

export const GOAL = { minThroughputRatio: 0.5, maxP99Ratio: 2 } as const;
/** The old goal against the bare server, reported beside its ratio. */
export const BARE_GOAL = { minThroughputRatio: 0.3 } as const;
export const PATH = "/api/orders/v1/orders";
const DB_PREFIX = "bench_orders_";

export interface OrdersCreateSettings {
  /** connections; warmupSeconds once per target before the rounds; durationSeconds per round and target. */
  load: LoadSettings;
  rounds: number;
  /** Also measure on this PostgreSQL (a dedicated database is created on it). */
  databaseUrl?: string;
  profile: boolean;
}

export interface OrdersCreateOptions extends OrdersCreateSettings {
  supervisor: Supervisor;
  resultsDir: string;
}

/** Under `npm run bench`: --duration per round, --warmup once, --rounds, --connections; PostgreSQL when TEST_DATABASE_URL is set. */
function settingsFrom(options: RunOptions): OrdersCreateSettings {
  const { load, rounds, profile, databaseUrl } = options;
  return { load, rounds: rounds.rounds, profile, ...(databaseUrl ? { databaseUrl } : {}) };
}

function header(options: RunOptions): string[] {
  const s = settingsFrom(options);
  return [
    `- orders-create load: autocannon, ${s.load.connections} connections, pipelining 1, a fresh Idempotency-Key (UUID) per request for both targets; ` +
      `${s.load.warmupSeconds} s warm-up per target (discarded), then ${s.rounds} rounds of ${s.load.durationSeconds} s per target, the order alternating; ` +
      postgresNote(options),
  ];
}

// ---- results --------------------------------------------------------------------------------

export interface RoundFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  valid: boolean;
  invalidReason?: string;
}

export interface TargetRounds {
  label: string;
  command: string;
  warmup: RoundFigures;
  rounds: RoundFigures[];
  medianRequestsPerSecond: number;
  medianP99Ms: number;
}

export interface DatabaseResult {
  database: "PGlite" | "PostgreSQL";
  detail: string;
  /** The 201 the bare server replays. */
  reference: { status: number; contentType: string; bytes: number };
  subject: TargetRounds;
  /** The minimal create handler (same schema, one transaction, same database kind and driver). */
  minimal: TargetRounds;
  /** The bare node:http server replaying the 201 bytes. */
  bare: TargetRounds;
  /** subject req/s ÷ minimal handler req/s, paired per round. */
  throughputRatio: Spread & { goal: number; meetsGoal: boolean | null };
  /** subject p99 ÷ minimal handler p99, paired per round. */
  p99Ratio: Spread & { goal: number; meetsGoal: boolean | null };
  /** subject req/s ÷ bare req/s and p99 ÷ bare p99, paired per round (the old baseline). */
  bareThroughputRatio: Spread & { goal: number; meetsGoal: boolean | null };
  bareP99Ratio: Spread;
  /** Orders in the organisation after the run vs 201s counted (+1 for the reference request). */
  ordersCheck: { counted201: number; stored: number; note: string };
  loadAverage1m: number[];
}

export interface OrdersCreateResults {
  benchmark: "orders-create";
  request: { method: "POST"; path: string; headers: string[]; bodyBytes: number };
  settings: Omit<OrdersCreateSettings, "databaseUrl"> & { databaseUrl?: string };
  databases: DatabaseResult[];
  profile?: ServerProfile;
}

// ---- measuring ------------------------------------------------------------------------------

function figures(m: Measurement): RoundFigures {
  return {
    requestsPerSecond: Math.round(m.requestsPerSecond * 10) / 10,
    p50Ms: round3(m.latencyMs.p50),
    p99Ms: round3(m.latencyMs.p99),
    requests: m.totalRequests,
    valid: m.valid,
    ...(m.invalidReason ? { invalidReason: m.invalidReason } : {}),
  };
}

/** A ratio with no round paired (every run invalid): no figure, and no goal met. */
const NO_RATIO: Spread = { value: Number.NaN, min: Number.NaN, max: Number.NaN, perRound: [] };

const BODY = JSON.stringify(orderBody({ client_reference: "bench-orders-create" }));

function headersFor(partner: SeededOrderPartner): Record<string, string> {
  return { authorization: `Bearer ${partner.apiKey}`, "content-type": "application/json" };
}

const SHAPE: RequestShape = { method: "POST", body: BODY, perRequestHeaders: () => ({ "idempotency-key": randomUUID() }) };

/** One create through the API, kept as the bytes the bare server will send back. */
async function captureCreate(api: RunningApi, headers: Record<string, string>): Promise<CapturedResponse> {
  const response = await fetch(`${api.url}${PATH}`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": randomUUID(), "accept-encoding": "identity" },
    body: BODY,
  });
  const created = await captureResponse(response);
  if (created.status !== 201) throw new Error(`POST ${PATH} answered ${created.status}: ${created.body.toString("utf8").slice(0, 300)}`);
  return created;
}

async function storedOrders(api: RunningApi, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${api.url}${PATH}?per_page=1`, { headers: { authorization: headers.authorization ?? "" } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${PATH} answered ${response.status}: ${text.slice(0, 300)}`);
  const parsed = JSON.parse(text) as { meta?: { total?: unknown } };
  if (typeof parsed.meta?.total !== "number") throw new Error(`GET ${PATH}: no meta.total in ${text.slice(0, 200)}`);
  return parsed.meta.total;
}

interface Target {
  name: "subject" | "minimal" | "bare";
  label: string;
  running: RunningTarget;
}

async function run(target: Target, headers: Record<string, string>, connections: number, seconds: number): Promise<Measurement> {
  return measure(`${target.running.url}${PATH}`, headers, { connections, warmupSeconds: 0, durationSeconds: seconds }, SHAPE);
}

async function measureDatabase(
  options: OrdersCreateOptions,
  database: DatabaseResult["database"],
  detail: string,
  postgres: ApiPostgres | undefined,
): Promise<DatabaseResult> {
  const { supervisor, load, rounds } = options;
  const log = (message: string) => console.error(`[bench] orders-create ${database}: ${message}`);
  const api = await startApi(supervisor, "standalone", postgres ? { postgres } : {});
  let bare: RunningTarget | undefined;
  let minimal: RunningTarget | undefined;
  try {
    const partner = await seedOrderPartner(api);
    const headers = headersFor(partner);
    const reference = await captureCreate(api, headers);
    bare = await startBare(supervisor, reference.body, reference.contentType, reference.status);
    const { quote } = JSON.parse(reference.body.toString("utf8")) as { quote?: unknown };
    minimal = await startMinimalCreate(supervisor, { quote: quote ?? {}, ...(postgres ? { postgresUrl: postgres.url } : {}) });
    const targets: Target[] = [
      { name: "minimal", label: `minimal create handler (same schema, one transaction), ${database}`, running: minimal },
      { name: "bare", label: "bare node:http (same 201 bytes)", running: bare },
      { name: "subject", label: `API standalone (scripts/api-server.ts), ${database}`, running: api },
    ];

    const warm = new Map<string, Measurement>();
    const measured = await interleave({
      rounds,
      targets,
      warmUp: async (t) => {
        log(`warm-up ${t.name} (${load.warmupSeconds} s)`);
        warm.set(t.name, await run(t, headers, load.connections, load.warmupSeconds));
      },
      sample: (t) => run(t, headers, load.connections, load.durationSeconds),
      onSample: (t, { round }, m) =>
        log(
          `round ${round + 1}/${rounds} ${t.name}: ${fmt(m.requestsPerSecond)} req/s, p99 ${fmt(m.latencyMs.p99, 2)} ms${m.valid ? "" : ` (invalid: ${m.invalidReason ?? ""})`}`,
        ),
    });

    const summarise = (t: Target): TargetRounds => {
      const list = measured.of(t.name);
      const w = warm.get(t.name);
      return {
        label: t.label,
        command: t.running.process.commandLine,
        warmup: w ? figures(w) : { requestsPerSecond: 0, p50Ms: 0, p99Ms: 0, requests: 0, valid: false, invalidReason: "not run" },
        rounds: list.map(figures),
        medianRequestsPerSecond: Math.round(median(list.map((m) => m.requestsPerSecond))),
        medianP99Ms: round3(median(list.map((m) => m.latencyMs.p99))),
      };
    };
    const [subjectRuns, minimalRuns, bareRuns] = (["subject", "minimal", "bare"] as const).map((name) => measured.of(name)) as [
      Measurement[],
      Measurement[],
      Measurement[],
    ];
    const allValid = [...subjectRuns, ...minimalRuns, ...bareRuns].every((m) => m.valid);
    const ratios = (baseline: Measurement[]) => ({
      throughput:
        pairedRatio(
          subjectRuns.map((m) => m.requestsPerSecond),
          baseline.map((m) => m.requestsPerSecond),
        ) ?? NO_RATIO,
      p99:
        pairedRatio(
          subjectRuns.map((m) => m.latencyMs.p99),
          baseline.map((m) => m.latencyMs.p99),
        ) ?? NO_RATIO,
    });
    const toMinimal = ratios(minimalRuns);
    const toBare = ratios(bareRuns);

    // Every 201 must be a new order (a replayed key would answer 201 without creating one).
    const counted201 = 1 + [warm.get("subject"), ...subjectRuns].reduce((sum, m) => sum + (m?.counts["2xx"] ?? 0), 0);
    const stored = await storedOrders(api, headers);
    const note =
      stored >= counted201 && stored - counted201 <= (rounds + 1) * load.connections
        ? "ok (the difference: requests still in flight when a run's clock stopped, at most one per connection per run)"
        : "**mismatch**";

    return {
      database,
      detail,
      reference: { status: reference.status, contentType: reference.contentType, bytes: reference.body.length },
      subject: summarise(targets[2] as Target),
      minimal: summarise(targets[0] as Target),
      bare: summarise(targets[1] as Target),
      throughputRatio: {
        ...toMinimal.throughput,
        goal: GOAL.minThroughputRatio,
        meetsGoal: allValid ? toMinimal.throughput.value >= GOAL.minThroughputRatio : null,
      },
      p99Ratio: { ...toMinimal.p99, goal: GOAL.maxP99Ratio, meetsGoal: allValid ? toMinimal.p99.value <= GOAL.maxP99Ratio : null },
      bareThroughputRatio: {
        ...toBare.throughput,
        goal: BARE_GOAL.minThroughputRatio,
        meetsGoal: allValid ? toBare.throughput.value >= BARE_GOAL.minThroughputRatio : null,
      },
      bareP99Ratio: toBare.p99,
      ordersCheck: { counted201, stored, note },
      loadAverage1m: measured.loadAverage1m,
    };
  } finally {
    await Promise.all([api.process.stop(), bare?.process.stop(), minimal?.process.stop()]);
  }
}

/** A separate PGlite pass under `node --cpu-prof`; its figures are slowed by the profiler. */
function profileSubject(options: OrdersCreateOptions): Promise<ServerProfile> {
  return profileApi({
    supervisor: options.supervisor,
    kind: "standalone",
    load: options.load,
    shape: SHAPE,
    resultsDir: options.resultsDir,
    file: "orders-create-standalone",
    prepare: async (api) => ({ url: `${api.url}${PATH}`, headers: headersFor(await seedOrderPartner(api)) }),
  });
}

export async function runOrdersCreate(options: OrdersCreateOptions): Promise<OrdersCreateResults> {
  const databases = await onEachDatabase(options.databaseUrl, DB_PREFIX, (database, detail, postgres) => measureDatabase(options, database, detail, postgres));
  const profile = options.profile ? await profileSubject(options) : undefined;
  const { load, rounds, profile: profiled, databaseUrl } = options;
  return {
    benchmark: "orders-create",
    request: {
      method: "POST",
      path: PATH,
      headers: ["authorization: Bearer pm_live_… (all targets)", "content-type: application/json", "idempotency-key: <fresh UUID per request>"],
      bodyBytes: Buffer.byteLength(BODY),
    },
    settings: { load, rounds, profile: profiled, ...(databaseUrl ? { databaseUrl: redactUrl(databaseUrl) } : {}) },
    databases,
    ...(profile ? { profile } : {}),
  };
}

// ---- report ---------------------------------------------------------------------------------

function perRound(values: number[], digits: number): string {
  return values.map((v) => fmt(v, digits)).join(", ");
}

function targetRow(d: DatabaseResult, t: TargetRounds): string {
  const invalid = t.rounds.filter((r) => !r.valid);
  const status = invalid.length ? `**${invalid.length} invalid**: ${invalid[0]?.invalidReason ?? ""}` : "all 2xx";
  return `| ${d.database} | ${t.label} | ${fmt(t.medianRequestsPerSecond)} | ${perRound(
    t.rounds.map((r) => r.requestsPerSecond),
    0,
  )} | ${fmt(t.medianP99Ms, 2)} | ${perRound(
    t.rounds.map((r) => r.p99Ms),
    2,
  )} | ${status} |`;
}

const verdict = (meetsGoal: boolean | null) => (meetsGoal === null ? "invalid run" : meetsGoal ? "meets goal" : "**below goal**");

function ratioRows(d: DatabaseResult): string[] {
  const r = d.throughputRatio;
  const p = d.p99Ratio;
  const b = d.bareThroughputRatio;
  return [
    `| ${d.database} | throughput subject / minimal handler | **${fmt(r.value, 3)}** | (${fmt(r.min, 3)}–${fmt(r.max, 3)}) | ${perRound(r.perRound, 3)} | ≥ ${r.goal} | ${verdict(r.meetsGoal)} |`,
    `| ${d.database} | p99 subject / minimal handler | **${fmt(p.value, 2)}×** | (${fmt(p.min, 2)}–${fmt(p.max, 2)}) | ${perRound(p.perRound, 2)} | ≤ ${p.goal}× | ${verdict(p.meetsGoal)} |`,
    `| ${d.database} | throughput subject / bare | ${fmt(b.value, 3)} | (${fmt(b.min, 3)}–${fmt(b.max, 3)}) | ${perRound(b.perRound, 3)} | ≥ ${b.goal} (old) | ${verdict(b.meetsGoal)} |`,
    `| ${d.database} | p99 subject / bare | ${fmt(d.bareP99Ratio.value, 2)}× | (${fmt(d.bareP99Ratio.min, 2)}–${fmt(d.bareP99Ratio.max, 2)}) | ${perRound(d.bareP99Ratio.perRound, 2)} | – | diagnostic |`,
  ];
}

export function formatOrdersCreate(results: OrdersCreateResults): string {
  const s = results.settings;
  const first = results.databases[0];
  const lines = [
    `### POST ${PATH} (API key, fresh Idempotency-Key) vs a minimal create handler and bare node:http`,
    "",
    `Request: ${results.request.bodyBytes} bytes of JSON (the API tests' \`orderBody()\`: 3 locations, 2 angles). ` +
      (first ? `Response: ${first.reference.status}, ${first.reference.bytes} bytes of ${first.reference.contentType}. ` : "") +
      "The minimal handler: node:http, the same body through the same `CreateOrderSchema`, then order + locations + one event row in one transaction " +
      "(same database kind and driver; PGlite in a fresh directory of its own) and a small 201 — no auth, rate limit, idempotency, pricing or time-zone lookup. " +
      `${s.load.warmupSeconds} s warm-up per target, then ${s.rounds} rounds of ${s.load.durationSeconds} s per target, the order rotating each round; ` +
      "figures are medians over rounds; ratios are the median of the per-round paired ratios (min–max, then each round). " +
      "autocannon builds every request anew here (the fresh key), which costs the load generator on these shared CPUs and caps the bare server " +
      "well below its GET figure in api-get-mission: that flatters the subject's ratio, if anything.",
    "",
    "| database | target | req/s (median) | req/s per round | p99 ms (median) | p99 ms per round | status |",
    "|---|---|---:|---|---:|---|---|",
    ...results.databases.flatMap((d) => [targetRow(d, d.subject), targetRow(d, d.minimal), targetRow(d, d.bare)]),
    "",
    "| database | ratio | median | (min–max) | per round | goal | |",
    "|---|---|---:|---|---|---|---|",
    ...results.databases.flatMap(ratioRows),
    "",
    ...results.databases.map(
      (d) =>
        `${d.database}: ${d.detail}; orders stored ${fmt(d.ordersCheck.stored)} for ${fmt(d.ordersCheck.counted201)} 201s counted: ${d.ordersCheck.note}; ` +
        `1-min load average after each round ${perRound(d.loadAverage1m, 2)} (on ${cpus().length} CPUs).`,
    ),
    ...(s.databaseUrl ? [] : ["", "PostgreSQL: not measured (set TEST_DATABASE_URL, e.g. from `bash scripts/ci/start-postgres.sh <dir>`)."]),
    "",
    "Targets, each in its own process group (API: NODE_ENV=production, DEMO=off, PUBLIC_ORIGIN=http://127.0.0.1:<port>; the Enterprise plan has no order-interface request limit):",
    ...results.databases.flatMap((d) => [
      `- ${d.database} subject: \`${d.subject.command}\``,
      `- ${d.database} minimal handler: \`${d.minimal.command}\``,
      `- ${d.database} bare: \`${d.bare.command}\``,
    ]),
  ];
  lines.push(...profileReport(results.profile, "the standalone API (PGlite)"));
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "orders-create",
  header,
  run: ({ supervisor, options, resultsDir }) => runOrdersCreate({ supervisor, resultsDir, ...settingsFrom(options) }),
  format: formatOrdersCreate,
});
