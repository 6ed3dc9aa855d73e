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
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { capture, freePort, postJson, stringField, waitForOk, type CapturedResponse } from "./lib/http";
import { measure, type LoadSettings, type Measurement, type RequestShape } from "./lib/load";
import { ensureNextBuild, type BuildMode } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { median } from "./lib/rounds";
import { seedOrderPartner } from "./lib/seed";
import { readAdminToken, ROOT, startApi, type RunningApi, type RunningTarget } from "./lib/targets";

export interface ApiRoutesOptions {
  supervisor: Supervisor;
  load: LoadSettings;
  build: BuildMode;
  rounds: number;
  /** Run the service standalone (scripts/api-server.ts) instead of `npm start`. */
  standalone?: boolean;
  /** Another Node binary (BENCH_OTHER_NODE): the service under it too ("other"), on its own copy of the data, in the same rounds. */
  otherNode?: string;
}

type Target = "ours" | "peer" | "bare" | "other";

interface Family {
  name: string;
  method: "GET" | "POST";
  path: string;
  credential: "token" | "apiKey";
  body?: string;
  /** Why this family's answer may (or may not) be served from memory safely: the ≥ 0.5 × bare goal applies when it may. */
  fromMemory: boolean;
}

interface RatioFigure {
  value: number | null;
  range: [number, number] | null;
}

export interface FamilyResult {
  family: string;
  request: string;
  bodyBytes: number;
  rps: Record<Target, number[]>;
  p99: Record<Target, number[]>;
  oursOverPeer: RatioFigure;
  oursOverBare: RatioFigure;
  p99OverBare: RatioFigure;
  /** The service under BENCH_OTHER_NODE ÷ the service, throughput; and ÷ the fair peer. */
  otherOverOurs?: RatioFigure;
  otherOverPeer?: RatioFigure;
  fromMemory: boolean;
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

const BOUNDS = { type: "Polygon", coordinates: [[[11.255, 43.768], [11.26, 43.768], [11.26, 43.773], [11.255, 43.773], [11.255, 43.768]]] };
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
  const client = await postJson(`${api.url}/api/admin/v1/orgs/${org}/clients`, { name: "routes", scopes: ["missions:read", "missions:write", "submissions:read"] }, admin, 201);
  const token = stringField(
    await postJson(`${api.url}/api/v1/auth/token`, { grant_type: "client_credentials", client_id: stringField(client, "client_id"), client_secret: stringField(client, "client_secret") }, undefined, 200),
    "access_token",
  );
  const missionId = stringField(await postJson(`${api.url}/api/v1/missions`, { title: "Routes mission", bounds: BOUNDS, required_images: 10 }, token, 201), "id");
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

function headersFor(family: Family, s: Seeded): Record<string, string> {
  return {
    authorization: `Bearer ${family.credential === "token" ? s.token : s.apiKey}`,
    ...(family.body ? { "content-type": "application/json" } : {}),
  };
}

async function send(url: string, family: Family, headers: Record<string, string>): Promise<CapturedResponse> {
  if (family.method === "GET") return capture(url, { ...headers, "accept-encoding": "identity" });
  const response = await fetch(url, { method: "POST", headers: { ...headers, "accept-encoding": "identity" }, body: family.body ?? null });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", contentLength: body.length, body };
}

async function startPeer(supervisor: Supervisor, dataDir: string, origin: string): Promise<RunningTarget> {
  const port = await freePort();
  const child = supervisor.spawn({
    name: "routes-peer",
    command: join(ROOT, "node_modules/.bin/tsx"),
    args: ["scripts/bench/api-routes-peer-server.ts", "--port", String(port)],
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      DATABASE_URL: "",
      ADMIN_TOKEN: "",
      SECRETS_KEY: "",
      SECRETS_KEY_FILE: "",
      DEMO: "off",
      MAP_BASEMAP: "offline",
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 120_000);
  return { url, process: child };
}

async function startBareRoutes(supervisor: Supervisor, routes: { method: string; path: string; reference: CapturedResponse }[]): Promise<RunningTarget> {
  const port = await freePort();
  const file = join(supervisor.tempDir("bare-routes"), "routes.json");
  writeFileSync(file, JSON.stringify(routes.map((r) => ({ method: r.method, path: r.path, contentType: r.reference.contentType, bodyBase64: r.reference.body.toString("base64") }))));
  const child = supervisor.spawn({
    name: "bare-routes",
    command: join(ROOT, "node_modules/.bin/tsx"),
    args: ["scripts/bench/bare-routes-server.ts", "--port", String(port), "--routes", file],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 30_000);
  return { url, process: child };
}

function pairedRatio(num: number[], den: number[]): RatioFigure {
  const pairs = num.flatMap((n, i) => (den[i] ? [n / (den[i] ?? 1)] : []));
  if (pairs.length === 0) return { value: null, range: null };
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return { value: r3(median(pairs)), range: [r3(Math.min(...pairs)), r3(Math.max(...pairs))] };
}

export async function runApiRoutes(options: ApiRoutesOptions): Promise<ApiRoutesResults> {
  const { supervisor } = options;
  const kind = options.standalone ? "standalone" : "next";
  if (kind === "next") {
    const build = await ensureNextBuild(supervisor, options.build);
    if (!build.usable) throw new Error(`no usable Next build: ${build.reason}`);
  }
  // Seed on the standalone API, stop it, copy its directory for the peer, start ours on the original.
  const first = await startApi(supervisor, "standalone");
  const seeded = await seed(first);
  await first.process.stop();
  const origin = first.url;
  const peerDir = supervisor.tempDir("routes-peer-data");
  cpSync(first.dataDir, peerDir, { recursive: true });
  const otherDir = supervisor.tempDir("routes-other-node-data");
  if (options.otherNode) cpSync(first.dataDir, otherDir, { recursive: true });
  const ours = await startApi(supervisor, kind, { dataDir: first.dataDir, env: { PUBLIC_ORIGIN: origin, DEMO: "on" } });
  const other = options.otherNode ? await startApi(supervisor, kind, { dataDir: otherDir, env: { PUBLIC_ORIGIN: origin, DEMO: "on" }, node: options.otherNode }) : undefined;
  const peer = await startPeer(supervisor, peerDir, origin);
  const list = families(seeded);
  const references: { family: Family; reference: CapturedResponse; peerBytes: number }[] = [];
  for (const family of list) {
    const headers = headersFor(family, seeded);
    const reference = await send(`${ours.url}${family.path}`, family, headers);
    if (reference.status !== 200) throw new Error(`${family.name}: the service answered ${reference.status}: ${reference.body.toString("utf8").slice(0, 300)}`);
    const fromPeer = await send(`${peer.url}${family.path}`, family, headers);
    if (fromPeer.status !== 200 || fromPeer.contentType !== reference.contentType) {
      throw new Error(`${family.name}: the peer answered ${fromPeer.status} ${fromPeer.contentType}: ${fromPeer.body.toString("utf8").slice(0, 300)}`);
    }
    // The same bytes but where a value is of its moment (the quote's dates, signed URLs' expiry).
    if (Math.abs(fromPeer.body.length - reference.body.length) > 16) {
      throw new Error(`${family.name}: the peer sent ${fromPeer.body.length} bytes, the service ${reference.body.length}`);
    }
    references.push({ family, reference, peerBytes: fromPeer.body.length });
  }
  const bare = await startBareRoutes(supervisor, references.map(({ family, reference }) => ({ method: family.method, path: family.path, reference })));

  const targets: Record<Target, RunningTarget> = { ours, peer, bare, other: other ?? ours };
  const order: Target[] = other ? ["ours", "peer", "bare", "other"] : ["ours", "peer", "bare"];
  // Each service (and its demo) runs only while it is measured.
  const groups: Partial<Record<Target, number>> = { ours: -ours.process.pid, ...(other ? { other: -other.process.pid } : {}) };
  const signal = (target: Target, name: "SIGSTOP" | "SIGCONT") => {
    const group = groups[target];
    if (group !== undefined) process.kill(group, name);
  };
  signal("ours", "SIGSTOP");
  signal("other", "SIGSTOP");
  const empty = () => ({ rps: { ours: [], peer: [], bare: [], other: [] }, p99: { ours: [], peer: [], bare: [], other: [] }, invalid: [] });
  const figures = new Map<string, { rps: Record<Target, number[]>; p99: Record<Target, number[]>; invalid: string[] }>();
  const loadAverages: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const { family } of references) {
        const f = figures.get(family.name) ?? empty();
        figures.set(family.name, f);
        for (let i = 0; i < order.length; i++) {
          const target = order[(i + round) % order.length] ?? "ours";
          console.error(`[bench] api-routes round ${round + 1}/${options.rounds}: ${family.name} on ${target}`);
          const shape: RequestShape = family.method === "POST" ? { method: "POST", ...(family.body ? { body: family.body } : {}) } : { method: "GET" };
          signal(target, "SIGCONT");
          let m: Measurement;
          try {
            m = await measure(`${targets[target].url}${family.path}`, headersFor(family, seeded), options.load, shape);
          } finally {
            signal(target, "SIGSTOP");
          }
          if (!m.valid) f.invalid.push(`${target} round ${round + 1}: ${m.invalidReason ?? "invalid"}`);
          f.rps[target].push(m.valid ? m.requestsPerSecond : 0);
          f.p99[target].push(m.latencyMs.p99);
          loadAverages.push(m.loadAverage1mAfter);
        }
      }
    }
  } finally {
    // To take the SIGTERM of stopAll().
    signal("ours", "SIGCONT");
    signal("other", "SIGCONT");
    await supervisor.stopAll();
  }
  return {
    benchmark: "api-routes",
    subject: kind === "next" ? "npm start (scripts/server.ts), DEMO=on" : "standalone API (scripts/api-server.ts), DEMO=on",
    ...(options.otherNode ? { otherNode: options.otherNode } : {}),
    rounds: options.rounds,
    loadAverages,
    families: references.map(({ family, reference }) => {
      const f = figures.get(family.name) ?? empty();
      return {
        family: family.name,
        request: `${family.method} ${family.path.replace(seeded.missionId, "{mission}").replace(seeded.orderId, "{order}")}`,
        bodyBytes: reference.body.length,
        rps: f.rps,
        p99: f.p99,
        oursOverPeer: pairedRatio(f.rps.ours, f.rps.peer),
        oursOverBare: pairedRatio(f.rps.ours, f.rps.bare),
        p99OverBare: pairedRatio(f.p99.ours, f.p99.bare),
        ...(other ? { otherOverOurs: pairedRatio(f.rps.other, f.rps.ours), otherOverPeer: pairedRatio(f.rps.other, f.rps.peer) } : {}),
        fromMemory: family.fromMemory,
        invalid: f.invalid,
      };
    }),
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const figure = (r: RatioFigure) => (r.value === null || r.range === null ? "–" : `${fmt(r.value, 3)} (${fmt(r.range[0], 3)}–${fmt(r.range[1], 3)})`);

export function formatApiRoutes(results: ApiRoutesResults): string {
  const loads = results.loadAverages;
  const lines = [
    `### Every authenticated read family: ${results.subject} vs the fair Fastify peer and bare node:http`,
    "",
    `${results.rounds} interleaved rounds; ratios are medians of per-round ratios (range). Load average (1 min) after each measurement: ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}, median ${fmt(median(loads), 1)}.`,
    "",
    "| family | request | bytes | ours req/s (median) | ours ÷ fair peer (goal ≥ 1) | ours ÷ bare (goal ≥ 0.5 when from memory) | p99 ours ÷ bare (goal ≤ 2) | notes |",
    "|---|---|---:|---:|---:|---:|---:|---|",
  ];
  for (const f of results.families) {
    const notes = [f.fromMemory ? "servable from memory" : "reads the database", ...f.invalid].join("; ");
    lines.push(`| ${f.family} | \`${f.request}\` | ${f.bodyBytes} | ${fmt(median(f.rps.ours))} | ${figure(f.oursOverPeer)} | ${figure(f.oursOverBare)} | ${figure(f.p99OverBare)} | ${notes} |`);
  }
  if (results.otherNode) {
    lines.push("", `The service under another Node (\`${results.otherNode}\`, its own copy of the data, DEMO=on), in the same rounds:`, "", "| family | other Node ÷ this Node | other Node ÷ fair peer |", "|---|---:|---:|");
    for (const f of results.families) lines.push(`| ${f.family} | ${figure(f.otherOverOurs ?? { value: null, range: null })} | ${figure(f.otherOverPeer ?? { value: null, range: null })} |`);
  }
  return lines.join("\n");
}
