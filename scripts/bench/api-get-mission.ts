// Benchmark: authenticated GET /api/v1/missions/{id} through the full stack, against a bare
// node:http server returning the same bytes and two Fastify peers (scripts/bench/fastify-peer-server.ts:
// jose verification with the same key, the same row read with the same driver, the request counted
// against the same rate limits with the spec's X-RateLimit-* headers, the same JSON):
// the fair peer, with the service's caches (verified tokens, client revocation, rows on the
// embedded database), the anchor of the goals; and the peer without caches, as a second line
// (issue 36: "9.18× the peer" said "caches help", not "our stack beats the peer's"), in the same run. Targets: the API standalone
// (scripts/api-server.ts), `npm start` (scripts/server.ts: the Hono app before Next, one port),
// and `npm start` with the demo running (its default on the embedded database).
// Interleaved rounds (every target once per round, the order rotating each round): each ratio is
// the median of the per-round ratios, reported with its range (the machine is shared and noisy).
// Goals (issues 27, 36): npm start ≥ 1.0 × the fair peer and ≥ 0.5 × bare throughput, p99 ≤ 2 × bare p99;
// with the demo running ≥ 0.8 × the demo-off figure. Reported as ratios, never turned into a
// pass/fail of the test suite: absolute numbers depend on the machine.
import { defineBenchmark } from "./lib/benchmark";
import { loadHeader } from "./lib/load-header";
import { BENCH_ADMIN_TOKEN, dedicatedDatabase } from "./lib/databases";
import { capture, describeMismatch, expectSameBytes, type CapturedResponse } from "./lib/http";
import { interleave, pauseGroups } from "./lib/interleave";
import type { LoadSettings, Measurement } from "./lib/load";
import {
  compareCpuPerRequest,
  formatCpuSection,
  judgeRatio,
  formatGoalRatioTable,
  measureLoadTarget,
  pickMedianRound,
  formatTargetTable,
  type CpuRatio,
  type Goal,
  type GoalRatio,
  type LoadTarget,
  type MeasuredTarget,
} from "./lib/load-report";
import { describeBuild, ensureNextBuild, type BuildMode, type BuildOutcome } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { seedMission } from "./lib/seed";
import { profileApi, profileReport, type ServerProfile } from "./lib/server-profile";
import { seedStandaloneAndCopy, startApi, startBare, startFastifyPeer, type RunningApi } from "./lib/targets";

export const GOALS = {
  minThroughputRatio: 0.5,
  maxP99Ratio: 2,
  /** npm start against the Fastify peer. */
  minPeerRatio: 1,
  /** npm start with the demo running against npm start without it. */
  minDemoRatio: 0.8,
} as const;

export interface ApiGetMissionOptions {
  supervisor: Supervisor;
  load: LoadSettings;
  build: BuildMode;
  skipNext: boolean;
  /** Also run a profiled standalone pass (numbers not used in the ratios). */
  profile: boolean;
  resultsDir: string;
  /** Measured rounds per target, interleaved (default 1). */
  rounds?: number;
  /** A PostgreSQL server (TEST_DATABASE_URL): the standalone API and the peer on it too. */
  databaseUrl?: string;
  /** Another Node binary (BENCH_OTHER_NODE, e.g. the `node` package's 24.x): `npm start` under it too, in the same rounds. */
  otherNode?: string;
}

export type TargetName = "bare" | "peer" | "fair-peer" | "standalone" | "next" | "next-demo" | "next-other-node" | "peer-pg" | "fair-peer-pg" | "standalone-pg";

export interface TargetResult extends MeasuredTarget {
  target: TargetName;
  command?: string;
  url?: string;
  /** Size of the response body this target returned before the load (same bytes for all). */
  bodyBytes?: number;
}

export type Ratio = GoalRatio;

export interface ApiGetMissionResults {
  benchmark: "api-get-mission";
  request: { method: "GET"; path: string; headers: string[] };
  reference: { contentType: string; contentLength: number };
  nextBuild?: BuildOutcome;
  targets: TargetResult[];
  ratios: Ratio[];
  /** Bare's CPU time per request ÷ each target's: steadier than throughput on a shared machine (the load generator's share of the cores drops out). */
  cpuRatios?: CpuRatio[];
  profile?: ServerProfile;
  /** The same on PostgreSQL (TEST_DATABASE_URL), on the run's database. */
  profilePostgres?: ApiGetMissionResults["profile"];
  /** `npm start` (scripts/server.ts) under the same load, when Next was measured. */
  profileNext?: ApiGetMissionResults["profile"];
}

const LABELS: Record<TargetName, string> = {
  bare: "bare node:http (same bytes)",
  peer: "Fastify peer without caches (jose verify and row read per request, same rate limits, same JSON)",
  "fair-peer": "fair Fastify peer (same token cache, revocation check and row cache, same rate limits, same JSON)",
  standalone: "API standalone (scripts/api-server.ts)",
  next: "npm start (scripts/server.ts: Hono before Next, one port)",
  "next-demo": "npm start with the demo running (DEMO=on)",
  "next-other-node": "npm start under BENCH_OTHER_NODE (node --import tsx scripts/server.ts)",
  "peer-pg": "Fastify peer without caches on PostgreSQL (same database as below)",
  "fair-peer-pg": "fair Fastify peer on PostgreSQL (same token cache and revocation check; no row cache, as the service)",
  "standalone-pg": "API standalone on PostgreSQL (DATABASE_URL)",
};

// Sent to every target, the bare one included (it ignores it), so that all three parse the same
// request bytes. No accept-encoding, as autocannon sends none: Next must not gzip. The set-up
// GETs below say `identity` explicitly because fetch would otherwise ask for gzip.
function requestHeaders(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}

interface Prepared extends LoadTarget {
  target: TargetName;
}

/**
 * Seeds the standalone API, copies its data directory for the two Fastify peers (PGlite: one
 * process per directory), starts it again on its own directory with the same public origin (the
 * tokens' issuer), so the token, the key and the mission row are the same for all three, and
 * captures the response the bare server will replay.
 */
async function prepareStandalone(
  supervisor: Supervisor,
): Promise<{ prepared: Prepared; reference: CapturedResponse; peerDirs: Record<"peer" | "fairPeer", string>; origin: string }> {
  const first = await seedStandaloneAndCopy(supervisor, seedMission, { peer: "peer-data", fairPeer: "fair-peer-data" });
  const { seeded, origin } = first;
  const api: RunningApi = await startApi(supervisor, "standalone", { dataDir: first.dataDir, env: { PUBLIC_ORIGIN: origin } });
  const headers = requestHeaders(seeded.accessToken);
  const reference = await capture(`${api.url}${seeded.path}`, { ...headers, "accept-encoding": "identity" });
  if (reference.status !== 200) throw new Error(`standalone GET ${seeded.path} answered ${reference.status}: ${reference.body.toString("utf8")}`);
  return {
    prepared: { target: "standalone", running: api, headers, path: seeded.path, bodyBytes: reference.body.length },
    reference,
    peerDirs: first.copies,
    origin,
  };
}

/** Seeds a started API and checks that it sends the reference's bytes for the seeded mission. */
async function prepareSeeded(api: RunningApi, target: TargetName, reference: CapturedResponse, what: string): Promise<{ prepared: Prepared; body: Buffer }> {
  const seeded = await seedMission(api);
  const headers = requestHeaders(seeded.accessToken);
  const check = await capture(`${api.url}${seeded.path}`, { ...headers, "accept-encoding": "identity" });
  const mismatch = describeMismatch(check, reference, "standalone");
  if (mismatch) throw new Error(`${what} ${mismatch}`);
  return { prepared: { target, running: api, headers, path: seeded.path, bodyBytes: check.body.length }, body: check.body };
}

/** A Fastify peer on a copy of the API's data directory or on its PostgreSQL database, checked to send `bytes` for `like`'s request. */
async function preparePeer(
  supervisor: Supervisor,
  bytes: CapturedResponse,
  like: Prepared,
  source: { dataDir: string } | { postgresUrl: string },
  origin: string,
  caches: boolean,
): Promise<Prepared> {
  const peer = await startFastifyPeer(supervisor, { ...source, issuer: origin, audience: `${origin}/api/v1`, contentType: bytes.contentType, caches });
  const where = "postgresUrl" in source ? " on PostgreSQL" : "";
  const sent = await expectSameBytes(`${peer.url}${like.path}`, like.headers, bytes, `the Fastify peer${where} does not send the API's bytes`);
  // It counts the request against the same limit as the service (the spec's X-RateLimit-* headers).
  if (sent.rateLimit === null || sent.rateLimit !== bytes.rateLimit) {
    throw new Error(`the Fastify peer${where} sends X-RateLimit-Limit ${sent.rateLimit ?? "absent"}, the service ${bytes.rateLimit ?? "absent"}`);
  }
  const target = `${caches ? "fair-peer" : "peer"}${"postgresUrl" in source ? "-pg" : ""}` as const;
  return { ...like, target, running: peer };
}

/** The standalone API on a PostgreSQL database of its own, and the Fastify peer on the same database. */
async function preparePostgres(
  supervisor: Supervisor,
  reference: CapturedResponse,
  databaseUrl: string,
): Promise<{ api: Prepared; peer: Prepared; fairPeer: Prepared }> {
  const api = await startApi(supervisor, "standalone", { postgres: { url: databaseUrl, adminToken: BENCH_ADMIN_TOKEN } });
  const { prepared, body } = await prepareSeeded(api, "standalone-pg", reference, "standalone on PostgreSQL");
  const bytes = { ...reference, body };
  const peer = await preparePeer(supervisor, bytes, prepared, { postgresUrl: databaseUrl }, api.url, false);
  const fairPeer = await preparePeer(supervisor, bytes, prepared, { postgresUrl: databaseUrl }, api.url, true);
  return { api: prepared, peer, fairPeer };
}

async function prepareBare(supervisor: Supervisor, reference: CapturedResponse, like: Prepared): Promise<Prepared> {
  const bare = await startBare(supervisor, reference.body, reference.contentType);
  await expectSameBytes(`${bare.url}${like.path}`, like.headers, reference, "the bare server does not return the captured bytes");
  return { ...like, target: "bare", running: bare };
}

async function prepareNext(
  supervisor: Supervisor,
  reference: CapturedResponse,
  target: "next" | "next-demo" | "next-other-node",
  node?: string,
): Promise<Prepared> {
  // With the demo on, the start seeds the demo organisation and the simulator starts at once (a
  // burst on a fresh directory, then a round every DEMO_INTERVAL_MS), as a visitor's first start.
  const api = await startApi(supervisor, "next", { ...(target === "next-demo" ? { env: { DEMO: "on" } } : {}), ...(node ? { node } : {}) });
  return (await prepareSeeded(api, target, reference, "Next")).prepared;
}

async function measureTarget(prepared: Prepared, load: LoadSettings): Promise<TargetResult> {
  console.error(`[bench] api-get-mission: ${prepared.target} (${load.warmupSeconds} s warm-up + ${load.durationSeconds} s)`);
  return { target: prepared.target, label: LABELS[prepared.target], ...(await measureLoadTarget(prepared, load)) };
}

function ratios(targets: TargetResult[]): Ratio[] {
  const find = (t: TargetName) => targets.find((r) => r.target === t);
  const ratio = judgeRatio;
  const rps = (m: Measurement) => m.requestsPerSecond;
  const p99 = (m: Measurement) => m.latencyMs.p99;
  const bareThroughput: Goal = { kind: "min", value: GOALS.minThroughputRatio };
  const bareP99: Goal = { kind: "max", value: GOALS.maxP99Ratio };
  const peer: Goal = { kind: "min", value: GOALS.minPeerRatio };
  return [
    ratio("npm start / fair Fastify peer throughput", find("next"), find("fair-peer"), rps, peer),
    ratio("npm start / Fastify peer without caches throughput", find("next"), find("peer"), rps, null),
    ratio("npm start / bare throughput", find("next"), find("bare"), rps, bareThroughput),
    ratio("npm start p99 / bare p99", find("next"), find("bare"), p99, bareP99),
    ratio("npm start demo on / fair Fastify peer throughput", find("next-demo"), find("fair-peer"), rps, peer),
    ratio("npm start demo on / bare throughput", find("next-demo"), find("bare"), rps, bareThroughput),
    ratio("npm start demo on / demo off throughput", find("next-demo"), find("next"), rps, { kind: "min", value: GOALS.minDemoRatio }),
    ratio("npm start demo on p99 / bare p99", find("next-demo"), find("bare"), p99, bareP99),
    ratio("npm start under BENCH_OTHER_NODE / npm start throughput", find("next-other-node"), find("next"), rps, null),
    ratio("npm start under BENCH_OTHER_NODE / fair Fastify peer throughput", find("next-other-node"), find("fair-peer"), rps, peer),
    ratio("npm start under BENCH_OTHER_NODE / bare throughput", find("next-other-node"), find("bare"), rps, bareThroughput),
    ratio("npm start under BENCH_OTHER_NODE p99 / bare p99", find("next-other-node"), find("bare"), p99, bareP99),
    ratio("standalone / fair Fastify peer throughput", find("standalone"), find("fair-peer"), rps, peer),
    ratio("standalone / bare throughput", find("standalone"), find("bare"), rps, bareThroughput),
    ratio("standalone p99 / bare p99", find("standalone"), find("bare"), p99, bareP99),
    ratio("standalone on PostgreSQL / fair Fastify peer on PostgreSQL throughput", find("standalone-pg"), find("fair-peer-pg"), rps, peer),
    ratio("standalone on PostgreSQL / Fastify peer without caches on PostgreSQL throughput", find("standalone-pg"), find("peer-pg"), rps, null),
    ratio("standalone on PostgreSQL / bare throughput", find("standalone-pg"), find("bare"), rps, bareThroughput),
    ratio("standalone on PostgreSQL p99 / bare p99", find("standalone-pg"), find("bare"), p99, bareP99),
    ratio("fair Fastify peer / bare throughput", find("fair-peer"), find("bare"), rps, null),
    ratio("fair Fastify peer p99 / bare p99", find("fair-peer"), find("bare"), p99, null),
    ratio("Fastify peer without caches / bare throughput", find("peer"), find("bare"), rps, null),
  ];
}

/** A separate pass of the standalone API or `npm start` under `node --cpu-prof`; its figures are slowed by the profiler. */
function profileTarget(options: ApiGetMissionOptions, kind: "standalone" | "next", postgresUrl?: string): Promise<ServerProfile> {
  return profileApi({
    supervisor: options.supervisor,
    kind,
    ...(postgresUrl ? { postgres: { url: postgresUrl, adminToken: BENCH_ADMIN_TOKEN } } : {}),
    load: options.load,
    resultsDir: options.resultsDir,
    file: `api-get-mission-${kind}${postgresUrl ? "-postgres" : ""}`,
    prepare: async (api) => {
      const seeded = await seedMission(api);
      return { url: `${api.url}${seeded.path}`, headers: requestHeaders(seeded.accessToken) };
    },
  });
}

async function prepareNextOrReason(
  options: ApiGetMissionOptions,
  reference: CapturedResponse,
  build: BuildOutcome | undefined,
  target: "next" | "next-demo" | "next-other-node",
) {
  if (!build) return "--skip-next";
  if (!build.usable) return `no usable Next build: ${build.reason}`;
  try {
    return await prepareNext(options.supervisor, reference, target, target === "next-other-node" ? options.otherNode : undefined);
  } catch (error) {
    return `Next did not start or answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function runApiGetMission(options: ApiGetMissionOptions): Promise<ApiGetMissionResults> {
  // Build first, while no server is running: the build would otherwise compete for the two cores.
  const nextBuild = options.skipNext ? undefined : await ensureNextBuild(options.supervisor, options.build);
  const { prepared: standalone, reference, peerDirs, origin } = await prepareStandalone(options.supervisor);
  const bare = await prepareBare(options.supervisor, reference, standalone);
  const peer = await preparePeer(options.supervisor, reference, standalone, { dataDir: peerDirs.peer }, origin, false);
  const fairPeer = await preparePeer(options.supervisor, reference, standalone, { dataDir: peerDirs.fairPeer }, origin, true);
  const next = await prepareNextOrReason(options, reference, nextBuild, "next");
  const nextDemo = await prepareNextOrReason(options, reference, nextBuild, "next-demo");
  const nextOtherNode = options.otherNode ? await prepareNextOrReason(options, reference, nextBuild, "next-other-node") : undefined;
  const dedicated = options.databaseUrl ? await dedicatedDatabase(options.databaseUrl, "pm_bench_get_") : undefined;
  try {
    const postgres = dedicated ? await preparePostgres(options.supervisor, reference, dedicated.url) : undefined;
    return await measureAll(options, {
      reference,
      nextBuild,
      order: [bare, fairPeer, peer, standalone, next, nextDemo, nextOtherNode, postgres?.fairPeer, postgres?.peer, postgres?.api],
      next,
      nextDemo,
      postgresUrl: dedicated?.url,
    });
  } finally {
    await options.supervisor.stopAll();
    await dedicated?.drop();
  }
}

async function measureAll(
  options: ApiGetMissionOptions,
  run: {
    reference: CapturedResponse;
    nextBuild: BuildOutcome | undefined;
    order: (Prepared | string | undefined)[];
    next: Prepared | string;
    nextDemo: Prepared | string;
    /** The run's PostgreSQL database, for the profiled pass. */
    postgresUrl?: string;
  },
): Promise<ApiGetMissionResults> {
  const { reference, nextBuild, next, nextDemo } = run;

  // One target under load at a time; the others sit idle (apart from their job-queue polling).
  // The demo's process is paused (SIGSTOP to its group) while another target is measured, so its
  // simulator loads only its own rounds; it goes on (SIGCONT) for its warm-up and measurement.
  const order = run.order.flatMap((p) => (p !== undefined && typeof p !== "string" ? [{ ...p, name: p.target }] : []));
  const measured = await interleave({
    rounds: Math.max(1, options.rounds ?? 1),
    targets: order,
    pauser: pauseGroups<(typeof order)[number]>((p) => (p.target === "next-demo" ? p.running.process : undefined)),
    sample: (prepared) => measureTarget(prepared, options.load),
  });
  const targets: TargetResult[] = order.flatMap((prepared) => pickMedianRound(measured.of(prepared.name)) ?? []);
  if (typeof next === "string") targets.push({ target: "next", label: LABELS.next, notRun: next });
  if (typeof nextDemo === "string") targets.push({ target: "next-demo", label: LABELS["next-demo"], notRun: nextDemo });
  await options.supervisor.stopAll();

  const profile = options.profile ? await profileTarget(options, "standalone") : undefined;
  const profilePostgres = options.profile && run.postgresUrl ? await profileTarget(options, "standalone", run.postgresUrl) : undefined;
  const profileNext = options.profile && typeof next !== "string" ? await profileTarget(options, "next") : undefined;
  return {
    benchmark: "api-get-mission",
    request: {
      method: "GET",
      path: "/api/v1/missions/{id}",
      headers: ["authorization: Bearer <access token> (all targets)"],
    },
    reference: {
      contentType: reference.contentType,
      contentLength: reference.contentLength,
    },
    ...(nextBuild ? { nextBuild } : {}),
    targets,
    ratios: ratios(targets),
    cpuRatios: compareCpuPerRequest(targets, (t) => t.target, "bare"),
    ...(profile ? { profile } : {}),
    ...(profilePostgres ? { profilePostgres } : {}),
    ...(profileNext ? { profileNext } : {}),
  };
}

// ---- report ---------------------------------------------------------------------------------

export function formatApiGetMission(results: ApiGetMissionResults): string {
  const lines = [
    `### Authenticated GET /api/v1/missions/{id} vs a fair Fastify peer, one without caches, and bare node:http`,
    "",
    `Response: ${results.reference.contentLength} bytes of ${results.reference.contentType}.` +
      (results.nextBuild ? ` ${describeBuild(results.nextBuild)}` : ""),
    "",
    ...formatTargetTable(results.targets),
    "",
    ...formatGoalRatioTable(results.ratios),
    ...formatCpuSection(results.cpuRatios, results.targets, (t) => t.target, "bare"),
  ];
  lines.push(
    "",
    "Targets, each in its own process group (API targets: NODE_ENV=production, fresh DATA_DIR with embedded PGlite, DEMO=off but for the demo target, " +
      "PUBLIC_ORIGIN=http://127.0.0.1:<port>, RATE_LIMIT_PER_MINUTE/_PER_HOUR=100000000, so every request is still counted):",
  );
  for (const t of results.targets) if (t.command) lines.push(`- ${t.target}: \`${t.command}\``);
  lines.push(
    ...profileReport(results.profile, "the standalone API"),
    ...profileReport(results.profilePostgres, "the standalone API on PostgreSQL"),
    ...profileReport(results.profileNext, "`npm start`"),
  );
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "api-get-mission",
  header: loadHeader,
  run: ({ supervisor, options, resultsDir }) =>
    runApiGetMission({
      supervisor,
      resultsDir,
      load: options.load,
      build: options.build,
      skipNext: options.skipNext,
      profile: options.profile,
      rounds: options.rounds.rounds,
      databaseUrl: options.databaseUrl,
      ...(options.otherNode ? { otherNode: options.otherNode } : {}),
    }),
  format: formatApiGetMission,
  record: (results, options) => ({ load: options.load, ...results }),
});
