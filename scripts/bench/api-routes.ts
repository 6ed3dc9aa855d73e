// Benchmark: every authenticated read family of the API under `npm start` with the demo running
// (issue 36) — mission get and list, a mission's submissions, order get and list, an order's
// photos, the price list and the quote (a POST without side effects) — each against
// - bare: node:http sending the bytes the service sent for that request (bare-routes-server.ts);
// - the fair peer: Fastify doing the same read with the same runtime, caches, domain functions
//   and JSON (api-routes-peer-server.ts), on a copy of the same seeded data directory.
// Interleaved: every round measures every family on every target, the targets' order rotating
// per round; each ratio is the median of its per-round ratios with their range. The service's
// process (and its demo) is paused (SIGSTOP) while the others are measured, as in api-get-mission.
// Goals: ≥ 1.0 × the peer, p99 ≤ 2 × bare, ≥ 0.5 × bare where the answer can be served from memory.
import { defineBenchmark } from "./lib/benchmark";
import { loadHeader } from "./lib/load-header";
import { capture, captureResponse, postJson, stringField, type CapturedResponse } from "./lib/http";
import { measure, type LoadSettings, type RequestShape } from "./lib/load";
import { ensureNextBuild, type BuildMode } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { fmt, interleave, median, pairedRatio, pauseGroups, spreadText, table, type Spread } from "./lib/interleave";
import { exchangeClientCredentials, seedOrderPartner } from "./lib/seed";
import { readAdminToken, seedStandaloneAndCopy, startApi, startBareRoutes, startRoutesPeer, type RunningApi, type RunningTarget } from "./lib/targets";

export interface ApiRoutesOptions {
  supervisor: Supervisor;
  load: LoadSettings;
  build: BuildMode;
  rounds: number;
  /** Run the service standalone (scripts/api-server.ts) instead of `npm start`. */
  standalone?: boolean;
  /** Another Node binary (BENCH_OTHER_NODE): the service under it too ("other"), on its own copy of the data, in the same rounds. */
  otherNode?: string;
  /**
   * The service with its demo running (the default, as `npm start` runs), or without it
   * (BENCH_DEMO=off): what the demo costs the reads. Without it the quote is left out: its delivery
   * estimate reads the history the demo seeds (and the peer seeds too).
   */
  demo?: boolean;
}

type Target = "ours" | "peer" | "bare" | "other";
interface Running {
  name: Target;
  running: RunningTarget;
}

interface Family {
  name: string;
  method: "GET" | "POST";
  path: string;
  credential: "token" | "apiKey";
  body?: string;
  /** Why this family's answer may (or may not) be served from memory safely: the ≥ 0.5 × bare goal applies when it may. */
  fromMemory: boolean;
}

export interface FamilyResult {
  family: string;
  request: string;
  bodyBytes: number;
  /** Per target, one value per round (0 where the run was invalid). */
  rps: Partial<Record<Target, number[]>>;
  p99: Partial<Record<Target, number[]>>;
  oursOverPeer: Spread | undefined;
  oursOverBare: Spread | undefined;
  p99OverBare: Spread | undefined;
  /** The service under BENCH_OTHER_NODE ÷ the service, throughput; and ÷ the fair peer. */
  otherOverOurs?: Spread | undefined;
  otherOverPeer?: Spread | undefined;
  fromMemory: boolean;
  /** Where the peer's answer differs from ours once the moments are set aside: the two did not read the same. */
  differs?: string;
  invalid: string[];
}

export interface ApiRoutesResults {
  benchmark: "api-routes";
  subject: string;
  otherNode?: string;
  rounds: number;
  families: FamilyResult[];
  loadAverages: number[];
}

const BOUNDS = {
  type: "Polygon",
  coordinates: [
    [
      [11.255, 43.768],
      [11.26, 43.768],
      [11.26, 43.773],
      [11.255, 43.773],
      [11.255, 43.768],
    ],
  ],
};
const ORDER_BODY = {
  client_reference: "bench-order",
  category: "cultural_exterior",
  description: "Façades of Florence",
  requirements: { angles: ["front", "entrance"], time_of_day: "daylight" },
  locations: [
    { location_id: "loc_duomo", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } },
    { location_id: "loc_uffizi", name: "Uffizi", coordinates: { lat: 43.7678, lng: 11.2553 } },
    { name: "Ponte Vecchio", coordinates: { lat: 43.768, lng: 11.2531 } },
  ],
};

interface Seeded {
  token: string;
  apiKey: string;
  missionId: string;
  orderId: string;
}

async function seed(api: RunningApi): Promise<Seeded> {
  const admin = readAdminToken(api);
  const org = stringField(await postJson(`${api.url}/api/admin/v1/orgs`, { name: "Routes partner" }, admin, 201), "id");
  const client = await postJson(
    `${api.url}/api/admin/v1/orgs/${org}/clients`,
    { name: "routes", scopes: ["missions:read", "missions:write", "submissions:read"] },
    admin,
    201,
  );
  const token = await exchangeClientCredentials(api.url, client);
  const missionId = stringField(
    await postJson(`${api.url}/api/v1/missions`, { title: "Routes mission", bounds: BOUNDS, required_images: 10 }, token, 201),
    "id",
  );
  const partner = await seedOrderPartner(api);
  const orderId = stringField(await postJson(`${api.url}/api/orders/v1/orders`, ORDER_BODY, partner.apiKey, 201), "id");
  return { token, apiKey: partner.apiKey, missionId, orderId };
}

function families(s: Seeded): Family[] {
  return [
    { name: "mission get", method: "GET", path: `/api/v1/missions/${s.missionId}`, credential: "token", fromMemory: true },
    { name: "mission list", method: "GET", path: "/api/v1/missions?per_page=5", credential: "token", fromMemory: false },
    { name: "submissions list", method: "GET", path: `/api/v1/missions/${s.missionId}/submissions?per_page=5`, credential: "token", fromMemory: false },
    { name: "order get", method: "GET", path: `/api/orders/v1/orders/${s.orderId}`, credential: "apiKey", fromMemory: false },
    { name: "order list", method: "GET", path: "/api/orders/v1/orders?per_page=5", credential: "apiKey", fromMemory: false },
    { name: "order photos", method: "GET", path: `/api/orders/v1/orders/${s.orderId}/photos?per_page=5`, credential: "apiKey", fromMemory: false },
    { name: "prices", method: "GET", path: "/api/orders/v1/prices", credential: "apiKey", fromMemory: true },
    { name: "quote", method: "POST", path: "/api/orders/v1/orders/quote", credential: "apiKey", body: JSON.stringify(ORDER_BODY), fromMemory: false },
  ];
}

// A value of the answer's moment: an instant (the quote's dates), a signed URL's expiry, the id the
// quote gives a location sent without one (new on every request).
const OF_ITS_MOMENT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|(?<=[?&](?:exp|expires)=)\d+|(?<="location_id":"loc_)[0-9a-z]{26}(?=")/g;

/** Where two answers differ once their moments are set aside ("at character N: ours …, the peer …"), or undefined when they do not. */
export function firstDifference(ours: string, peer: string): string | undefined {
  const a = ours.replace(OF_ITS_MOMENT, "…");
  const b = peer.replace(OF_ITS_MOMENT, "…");
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, i - 24), i + 40));
  return `at character ${i}: ours ${around(a)}, the peer ${around(b)}`;
}

function headersFor(family: Family, s: Seeded): Record<string, string> {
  return {
    authorization: `Bearer ${family.credential === "token" ? s.token : s.apiKey}`,
    ...(family.body ? { "content-type": "application/json" } : {}),
  };
}

async function send(url: string, family: Family, headers: Record<string, string>): Promise<CapturedResponse> {
  if (family.method === "GET") return capture(url, { ...headers, "accept-encoding": "identity" });
  return captureResponse(await fetch(url, { method: "POST", headers: { ...headers, "accept-encoding": "identity" }, body: family.body ?? null }));
}

export async function runApiRoutes(options: ApiRoutesOptions): Promise<ApiRoutesResults> {
  const { supervisor } = options;
  const kind = options.standalone ? "standalone" : "next";
  if (kind === "next") {
    const build = await ensureNextBuild(supervisor, options.build);
    if (!build.usable) throw new Error(`no usable Next build: ${build.reason}`);
  }
  // Seed on the standalone API, stop it, copy its directory for the peer (and the other Node), start ours on the original.
  const copies = { peer: "routes-peer-data", ...(options.otherNode ? { other: "routes-other-node-data" } : {}) };
  const { seeded, dataDir, origin, copies: dirs } = await seedStandaloneAndCopy(supervisor, seed, copies);
  const demo = options.demo === false ? "off" : "on";
  const ours = await startApi(supervisor, kind, { dataDir, env: { PUBLIC_ORIGIN: origin, DEMO: demo } });
  const other =
    options.otherNode && dirs.other
      ? await startApi(supervisor, kind, { dataDir: dirs.other, env: { PUBLIC_ORIGIN: origin, DEMO: demo }, node: options.otherNode })
      : undefined;
  const peer = await startRoutesPeer(supervisor, dirs.peer, origin);
  const list = families(seeded).filter((family) => demo === "on" || family.name !== "quote");
  const references: { family: Family; reference: CapturedResponse; differs: string | undefined }[] = [];
  for (const family of list) {
    const headers = headersFor(family, seeded);
    const reference = await send(`${ours.url}${family.path}`, family, headers);
    if (reference.status !== 200) throw new Error(`${family.name}: the service answered ${reference.status}: ${reference.body.toString("utf8").slice(0, 300)}`);
    const fromPeer = await send(`${peer.url}${family.path}`, family, headers);
    if (fromPeer.status !== 200 || fromPeer.contentType !== reference.contentType) {
      throw new Error(`${family.name}: the peer answered ${fromPeer.status} ${fromPeer.contentType}: ${fromPeer.body.toString("utf8").slice(0, 300)}`);
    }
    // Counted where the service counts, against the same limit (the spec's X-RateLimit-* headers).
    if (fromPeer.rateLimit !== reference.rateLimit) {
      throw new Error(`${family.name}: the peer's X-RateLimit-Limit is ${fromPeer.rateLimit ?? "absent"}, the service's ${reference.rateLimit ?? "absent"}`);
    }
    // The same bytes but where a value is of its moment (the quote's dates, signed URLs' expiry).
    if (Math.abs(fromPeer.body.length - reference.body.length) > 16) {
      throw new Error(
        `${family.name}: the peer sent ${fromPeer.body.length} bytes, the service ${reference.body.length}\npeer:    ${fromPeer.body.toString("utf8").slice(-400)}\nservice: ${reference.body.toString("utf8").slice(-400)}`,
      );
    }
    references.push({ family, reference, differs: firstDifference(reference.body.toString("utf8"), fromPeer.body.toString("utf8")) });
  }
  const bare = await startBareRoutes(
    supervisor,
    references.map(({ family, reference }) => ({ method: family.method, path: family.path, reference })),
  );

  const targets: Running[] = [
    { name: "ours", running: ours },
    { name: "peer", running: peer },
    { name: "bare", running: bare },
    ...(other ? [{ name: "other" as const, running: other }] : []),
  ];
  // Each service (and its demo) runs only while it is measured.
  const measured = await interleave({
    rounds: options.rounds,
    targets,
    cases: list,
    pauser: pauseGroups<Running>((t) => (t.name === "ours" || t.name === "other" ? t.running.process : undefined)),
    sample: (target, { round, case: family }) => {
      console.error(`[bench] api-routes round ${round + 1}/${options.rounds}: ${family.name} on ${target.name}`);
      const shape: RequestShape = family.method === "POST" ? { method: "POST", ...(family.body ? { body: family.body } : {}) } : { method: "GET" };
      return measure(`${target.running.url}${family.path}`, headersFor(family, seeded), options.load, shape);
    },
  });
  await supervisor.stopAll();
  const rps = (family: string, t: Target) => measured.of(t, family).map((m) => (m.valid ? m.requestsPerSecond : 0));
  const p99 = (family: string, t: Target) => measured.of(t, family).map((m) => m.latencyMs.p99);
  const names = targets.map((t) => t.name);
  const perTarget = (family: string, pick: (family: string, t: Target) => number[]) =>
    Object.fromEntries(names.map((t) => [t, pick(family, t)])) as Partial<Record<Target, number[]>>;
  const loadAverages = names.flatMap((t) => list.flatMap((f) => measured.of(t, f.name).map((m) => m.loadAverage1mAfter)));
  return {
    benchmark: "api-routes",
    subject: `${kind === "next" ? "npm start (scripts/server.ts)" : "standalone API (scripts/api-server.ts)"}, DEMO=${demo}`,
    ...(options.otherNode ? { otherNode: options.otherNode } : {}),
    rounds: options.rounds,
    loadAverages,
    families: references.map(({ family, reference, differs }) => ({
      family: family.name,
      request: `${family.method} ${family.path.replace(seeded.missionId, "{mission}").replace(seeded.orderId, "{order}")}`,
      bodyBytes: reference.body.length,
      rps: perTarget(family.name, rps),
      p99: perTarget(family.name, p99),
      oursOverPeer: pairedRatio(rps(family.name, "ours"), rps(family.name, "peer")),
      oursOverBare: pairedRatio(rps(family.name, "ours"), rps(family.name, "bare")),
      p99OverBare: pairedRatio(p99(family.name, "ours"), p99(family.name, "bare")),
      ...(other
        ? {
            otherOverOurs: pairedRatio(rps(family.name, "other"), rps(family.name, "ours")),
            otherOverPeer: pairedRatio(rps(family.name, "other"), rps(family.name, "peer")),
          }
        : {}),
      fromMemory: family.fromMemory,
      ...(differs ? { differs } : {}),
      invalid: names.flatMap((t) =>
        measured.of(t, family.name).flatMap((m, round) => (m.valid ? [] : [`${t} round ${round + 1}: ${m.invalidReason ?? "invalid"}`])),
      ),
    })),
  };
}

export function formatApiRoutes(results: ApiRoutesResults): string {
  const loads = results.loadAverages;
  const lines = [
    `### Every authenticated read family: ${results.subject} vs the fair Fastify peer and bare node:http`,
    "",
    `${results.rounds} interleaved rounds; ratios are medians of per-round ratios (range). Load average (1 min) after each measurement: ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}, median ${fmt(median(loads), 1)}.`,
    "",
    ...table(
      [
        "family",
        "request",
        "bytes",
        "ours req/s (median)",
        "ours ÷ fair peer (goal ≥ 1)",
        "ours ÷ bare (goal ≥ 0.5 when from memory)",
        "p99 ours ÷ bare (goal ≤ 2)",
        "notes",
      ],
      "llrrrrrl",
      results.families.map((f) => [
        f.family,
        `\`${f.request}\``,
        String(f.bodyBytes),
        fmt(median(f.rps.ours ?? [])),
        spreadText(f.oursOverPeer),
        spreadText(f.oursOverBare),
        spreadText(f.p99OverBare),
        [f.fromMemory ? "servable from memory" : "reads the database", ...(f.differs ? [`the peer's answer differs: ${f.differs}`] : []), ...f.invalid].join(
          "; ",
        ),
      ]),
    ),
  ];
  if (results.otherNode) {
    lines.push("", `The service under another Node (\`${results.otherNode}\`, its own copy of the data, as the service), in the same rounds:`, "");
    lines.push(
      ...table(
        ["family", "other Node ÷ this Node", "other Node ÷ fair peer"],
        "lrr",
        results.families.map((f) => [f.family, spreadText(f.otherOverOurs), spreadText(f.otherOverPeer)]),
      ),
    );
  }
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "api-routes",
  header: loadHeader,
  run: ({ supervisor, options }) =>
    runApiRoutes({
      supervisor,
      load: options.load,
      build: options.build,
      rounds: options.rounds.rounds,
      standalone: options.skipNext,
      demo: options.demo,
      ...(options.otherNode ? { otherNode: options.otherNode } : {}),
    }),
  format: formatApiRoutes,
  record: (results, options) => ({ load: options.load, ...results }),
});
