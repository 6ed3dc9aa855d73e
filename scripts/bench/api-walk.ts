// Benchmark: every GET route of both OpenAPI documents, walked one request at a time under
// `npm start` with the demo on, on the demo's own data — the routes no load benchmark covers
// (issue 36: "only the benchmarked route is fast"). Each route against bare node:http sending the
// bytes the service sent for it, interleaved: every round sends each route a few times to the
// service and to bare, their order alternating, one request at a time on a kept-alive connection.
// A partner's view: how long one call takes, not how many a second a server sustains
// (api-routes does that for the eight read families).
//
// The path's ids come from the demo partner's data, found through the API itself: the mission
// with the most submissions (waited for), one of its submissions and its signed thumbnail path, an
// order, a recurring order (a schedule's), an order with delivered photos and one of them and a
// draft when the demo has any, a webhook (made when the demo has none) and its test delivery. A
// route whose id cannot be found, or that does not answer 200 with them, is listed as not walked,
// with why.
// No goal: the report names a route whose median is over bare's by more than SLOW_MS, the figure to
// look at first.
import { Agent, request } from "node:http";
import { z } from "zod";
import { defineBenchmark } from "./lib/benchmark";
import { loadHeader } from "./lib/load-header";
import { postJson, requestJson, stringField, type CapturedResponse } from "./lib/http";
import { fmt, median, pairedRatio, spreadText, table, type Spread } from "./lib/interleave";
import { ensureNextBuild, type BuildMode } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { exchangeClientCredentials } from "./lib/seed";
import { readAdminToken, startApi, startBareRoutes, type RunningApi } from "./lib/targets";
import { PARTNER_SCOPES } from "@/lib/auth/scopes";

/** A route whose median call takes this much longer than bare sending the same bytes is named in the report. */
export const SLOW_MS = 25;
const DOCUMENTS = ["/api/v1/openapi.json", "/api/orders/v1/openapi.json"] as const;

export interface ApiWalkOptions {
  supervisor: Supervisor;
  build: BuildMode;
  rounds: number;
  /** Requests per route and target in each round. */
  perRound: number;
  /** How long to let the demo make data (orders with photos, submissions) before walking, at most. */
  demoSeconds: number;
}

export interface WalkedRoute {
  route: string;
  path: string;
  bytes: number;
  contentType: string;
  /** Per round, the median of that round's requests, ms. */
  oursMs: number[];
  bareMs: number[];
  /** Ours ÷ bare, per round (a latency: lower is better). */
  oursOverBare: Spread | undefined;
  slowestMs: number;
}

export interface ApiWalkResults {
  benchmark: "api-walk";
  subject: string;
  rounds: number;
  perRound: number;
  waitedSeconds: number;
  ids: Record<string, string>;
  walked: WalkedRoute[];
  notWalked: { route: string; why: string }[];
}

interface Credentials {
  token: string;
  apiKey: string;
  zoomerToken: string;
}

const OpenApi = z.object({ servers: z.array(z.object({ url: z.string() })).optional(), paths: z.record(z.string(), z.record(z.string(), z.unknown())) });
const Orgs = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) });
const List = z.object({ data: z.array(z.record(z.string(), z.unknown())).optional() });

/** Query parameters a route requires, with values in the demo's city (Florence). */
const QUERIES: Record<string, string> = {
  "/api/v1/field/missions": "?lat=43.7696&lng=11.2558",
  "/api/v1/field/assignments": "?lat=43.7696&lng=11.2558",
};

/** The demo partner's credentials: a client with every partner scope and an API key, its plan made Enterprise (no per-minute limit on the order interface). */
async function demoPartner(api: RunningApi): Promise<{ orgId: string; credentials: Credentials }> {
  const admin = readAdminToken(api);
  const orgs = await requestJson(`${api.url}/api/admin/v1/orgs`, "GET", Orgs, { bearer: admin });
  const org = orgs.data.find((o) => o.name.startsWith("Demo Partner"));
  if (!org) throw new Error(`no demo partner among ${orgs.data.map((o) => o.name).join(", ")}`);
  await requestJson(`${api.url}/api/admin/v1/orgs/${org.id}`, "PATCH", z.unknown(), { bearer: admin, body: { plan: "enterprise" } });
  const client = await postJson(`${api.url}/api/admin/v1/orgs/${org.id}/clients`, { name: "walk", scopes: PARTNER_SCOPES }, admin, 201);
  const key = await postJson(`${api.url}/api/admin/v1/orgs/${org.id}/api-keys`, { name: "walk" }, admin, 201);
  const zoomer = await postJson(`${api.url}/api/admin/v1/zoomers`, { name: "Walk zoomer" }, admin, 201);
  return {
    orgId: org.id,
    credentials: {
      token: await exchangeClientCredentials(api.url, client),
      apiKey: stringField(key, "api_key"),
      zoomerToken: await exchangeClientCredentials(api.url, zoomer),
    },
  };
}

/** A list the walk takes ids from; undefined when the route does not answer 200 (its ids are then missing, and said so). */
async function json(api: RunningApi, path: string, credential: string): Promise<z.infer<typeof List> | undefined> {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${credential}` } });
  return response.ok ? List.parse(await response.json()) : undefined;
}

const idOf = (row: Record<string, unknown> | undefined): string | undefined => (typeof row?.id === "string" ? row.id : undefined);

/**
 * The ids the walk fills paths with, from the demo partner's data; waits (up to demoSeconds) for a
 * mission with a submission. An order's delivered photos take the demo longer than that (none in
 * 150 s in the first runs): taken when there are some, not waited for.
 */
async function findIds(api: RunningApi, c: Credentials, demoSeconds: number): Promise<{ ids: Record<string, string>; waitedSeconds: number }> {
  const started = Date.now();
  const ids: Record<string, string> = {};
  for (;;) {
    const missions = (await json(api, "/api/v1/missions?per_page=100", c.token))?.data ?? [];
    const busiest = [...missions].sort((a, b) => Number(b.submissions ?? 0) - Number(a.submissions ?? 0))[0];
    if (idOf(busiest)) ids.mission = idOf(busiest) ?? "";
    const page = ids.mission ? ((await json(api, `/api/v1/missions/${ids.mission}/submissions?per_page=20`, c.token))?.data ?? []) : [];
    if (idOf(page[0])) ids.submission = idOf(page[0]) ?? "";
    // The CDN's paths are signed: the one a submission's thumbnail_url names, as a partner gets it.
    const thumbnail = page.map((row) => row.thumbnail_url).find((url): url is string => typeof url === "string");
    if (thumbnail) ids.cdn = new URL(thumbnail).pathname + new URL(thumbnail).search;
    const orders = (await json(api, "/api/orders/v1/orders?per_page=100", c.apiKey))?.data ?? [];
    const recurring = orders.find((order) => order.recurring);
    if (idOf(recurring)) ids.recurringOrder = idOf(recurring) ?? "";
    for (const order of orders) {
      const photo = (await json(api, `/api/orders/v1/orders/${idOf(order) ?? ""}/photos?per_page=1`, c.apiKey))?.data?.[0];
      if (photo) {
        ids.order = idOf(order) ?? "";
        ids.photo = idOf(photo) ?? String(photo.photo_id ?? "");
        break;
      }
    }
    ids.order ??= idOf(orders[0]) ?? "";
    if (ids.submission || Date.now() - started > demoSeconds * 1000) break;
    console.error("[bench] api-walk: waiting for the demo's first submission");
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  const draft = idOf((await json(api, "/api/orders/v1/drafts", c.apiKey))?.data?.[0]);
  if (draft) ids.draft = draft;
  // The demo has no webhook: one to a local port nothing listens on (private targets allowed for this run), and
  // its test event, give the webhook routes an endpoint and a (failing) delivery to read.
  const webhook =
    idOf((await json(api, "/api/v1/webhooks", c.token))?.data?.[0]) ??
    stringField(await postJson(`${api.url}/api/v1/webhooks`, { url: "http://127.0.0.1:1025/walk", description: "api-walk" }, c.token, 201), "id");
  ids.webhook = webhook;
  await postJson(`${api.url}/api/v1/webhooks/${webhook}/test`, {}, c.token, 202);
  const delivery = idOf((await json(api, `/api/v1/webhooks/${webhook}/deliveries?per_page=1`, c.token))?.data?.[0]);
  if (delivery) ids.delivery = delivery;
  return { ids: Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== "")), waitedSeconds: Math.round((Date.now() - started) / 1000) };
}

/** Routes whose {id} must be of a particular kind: a schedule is a recurring order's. */
const ID_OVERRIDES: Record<string, string> = { "/api/orders/v1/orders/{id}/schedule": "recurringOrder" };

/** Which id a path parameter takes: by its name when it says (mission_id, photo_id…), else by the collection it follows (/orders/{id}). */
const NOUNS: Record<string, string> = {
  missions: "mission",
  submissions: "submission",
  orders: "order",
  photos: "photo",
  drafts: "draft",
  webhooks: "webhook",
  deliveries: "delivery",
};
export function fillPath(template: string, ids: Record<string, string>): { path: string } | { why: string } {
  if (template.startsWith("/cdn/")) return ids.cdn ? { path: ids.cdn } : { why: "no submission with a thumbnail in the demo's data" };
  const segments = template.split("/");
  const filled: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!param) {
      filled.push(segment);
      continue;
    }
    const noun = (param === "id" ? ID_OVERRIDES[template] : undefined) ?? /^(\w+)_id$/.exec(param)?.[1] ?? NOUNS[segments[i - 1] ?? ""];
    const id = noun ? ids[noun] : undefined;
    if (!id) return { why: `no ${noun ?? `${segments[i - 1] ?? ""}/{${param}}`} in the demo's data` };
    filled.push(id);
  }
  const path = filled.join("/");
  return { path: path + (QUERIES[path] ?? "") };
}

function credentialFor(path: string, c: Credentials): string {
  if (path.startsWith("/api/v1/field/")) return c.zoomerToken;
  return path.startsWith("/api/orders/") ? c.apiKey : c.token;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on the kept-alive connection, read to its end: milliseconds, status and bytes. */
function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number; body: Buffer; contentType: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          ms: performance.now() - started,
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          contentType: response.headers["content-type"] ?? "",
        }),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function runApiWalk(options: ApiWalkOptions): Promise<ApiWalkResults> {
  const { supervisor } = options;
  const build = await ensureNextBuild(supervisor, options.build);
  if (!build.usable) throw new Error(`no usable Next build: ${build.reason}`);
  const api = await startApi(supervisor, "next", { env: { DEMO: "on", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
  const { credentials, orgId } = await demoPartner(api);
  const { ids, waitedSeconds } = await findIds(api, credentials, options.demoSeconds);
  console.error(`[bench] api-walk: ${orgId}, ids ${JSON.stringify(ids)}`);

  const templates = new Set<string>();
  for (const document of DOCUMENTS) {
    const spec = await requestJson(`${api.url}${document}`, "GET", OpenApi);
    // Paths are relative to the document's server (the order interface's is /api/orders/v1).
    const base = new URL(spec.servers?.[0]?.url ?? "/", api.url).pathname.replace(/\/$/, "");
    for (const [path, operations] of Object.entries(spec.paths)) if ("get" in operations) templates.add(path.startsWith(base) ? path : base + path);
  }
  const notWalked: ApiWalkResults["notWalked"] = [];
  const routes: { route: string; path: string; headers: Record<string, string>; reference: CapturedResponse }[] = [];
  for (const route of [...templates].sort()) {
    const filled = fillPath(route, ids);
    if ("why" in filled) {
      notWalked.push({ route, why: filled.why });
      continue;
    }
    const headers = { authorization: `Bearer ${credentialFor(filled.path, credentials)}`, "accept-encoding": "identity" };
    const first = await timedGet(`${api.url}${filled.path}`, headers);
    if (first.status !== 200) {
      notWalked.push({ route, why: `answered ${first.status} (${first.body.toString("utf8").slice(0, 120).replace(/\s+/g, " ")})` });
      continue;
    }
    routes.push({
      route,
      path: filled.path,
      headers,
      reference: { status: 200, contentType: first.contentType, contentLength: first.body.length, body: first.body, rateLimit: null },
    });
  }
  const bare = await startBareRoutes(
    supervisor,
    routes.map((r) => ({ method: "GET", path: r.path, reference: r.reference })),
  );

  const walked: WalkedRoute[] = [];
  for (const route of routes) {
    const rounds = { ours: [] as number[], bare: [] as number[] };
    let slowest = 0;
    // One call each first: a route's first call compiles its code paths.
    await timedGet(`${api.url}${route.path}`, route.headers);
    await timedGet(`${bare.url}${route.path}`, route.headers);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (["ours", "bare"] as const) : (["bare", "ours"] as const);
      for (const target of order) {
        const base = target === "ours" ? api.url : bare.url;
        const times: number[] = [];
        for (let i = 0; i < options.perRound; i++) {
          const { ms, status } = await timedGet(`${base}${route.path}`, route.headers);
          if (status !== 200) throw new Error(`${route.route}: ${target} answered ${status} during the walk`);
          times.push(ms);
        }
        rounds[target].push(median(times));
        if (target === "ours") slowest = Math.max(slowest, ...times);
      }
    }
    walked.push({
      route: route.route,
      path: route.path,
      bytes: route.reference.body.length,
      contentType: route.reference.contentType,
      oursMs: rounds.ours,
      bareMs: rounds.bare,
      oursOverBare: pairedRatio(rounds.ours, rounds.bare),
      slowestMs: slowest,
    });
    console.error(`[bench] api-walk: ${route.route} ${fmt(median(rounds.ours), 2)} ms (bare ${fmt(median(rounds.bare), 2)} ms)`);
  }
  await supervisor.stopAll();
  return {
    benchmark: "api-walk",
    subject: "npm start (scripts/server.ts), DEMO=on, the demo partner's data",
    rounds: options.rounds,
    perRound: options.perRound,
    waitedSeconds,
    ids,
    walked,
    notWalked,
  };
}

export function formatApiWalk(results: ApiWalkResults): string {
  // The service's own time: a large download (an export's ZIP) takes long on bare too.
  const slow = results.walked.filter((r) => median(r.oursMs) - median(r.bareMs) > SLOW_MS);
  const lines = [
    `### Every GET route, one call at a time: ${results.subject} vs bare node:http sending the same bytes`,
    "",
    `${results.rounds} rounds of ${results.perRound} calls per route and target, the two alternating; figures are medians over rounds (range of the per-round ratio). ` +
      `The demo ran ${results.waitedSeconds} s before the walk. ${results.walked.length} routes walked, ${results.notWalked.length} not. ` +
      (slow.length ? `Over bare by more than ${SLOW_MS} ms: ${slow.map((r) => `\`${r.route}\``).join(", ")}.` : `None over bare by more than ${SLOW_MS} ms.`),
    "",
    ...table(
      ["route", "bytes", "ours ms (median)", "bare ms", "ours ÷ bare (latency)", "slowest call ms"],
      "lrrrrr",
      results.walked.map((r) => [
        `\`${r.route}\``,
        String(r.bytes),
        fmt(median(r.oursMs), 2),
        fmt(median(r.bareMs), 2),
        spreadText(r.oursOverBare, 1),
        fmt(r.slowestMs, 1),
      ]),
    ),
  ];
  if (results.notWalked.length) {
    lines.push("", "Not walked:", "", ...results.notWalked.map((r) => `- \`${r.route}\`: ${r.why}`));
  }
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "api-walk",
  header: loadHeader,
  run: ({ supervisor, options }) => runApiWalk({ supervisor, build: options.build, rounds: options.rounds.rounds, perRound: 5, demoSeconds: 150 }),
  format: formatApiWalk,
});
