// Benchmark: first-load JavaScript per dashboard page — every script the browser fetches on a
// first visit (fresh context) until scripts are quiet (the load event — and on map pages the map's
// own `data-map-state="ready"` — then no script requested or in flight for 2 s; not Playwright's
// `networkidle`, which a prefetch left open holds off: the nav's /webhooks and
// /settings/credentials prefetches stayed open for more than 30 s), summed compressed (gzip -6 of each body,
// and the bytes actually transferred when `next start` compressed them) — against a budget of
// 180 kB, with a check that MapLibre's code (found by its content, not by chunk names, which
// change every build) is fetched only on pages that show a map.
// Goal (issue): non-map pages ≤ 180 kB compressed; map code only where a map is. Reported as
// size ÷ budget; never turned into a pass/fail of the test suite.
import { gzipSync } from "node:zlib";
import type { Browser, Request, Response } from "@playwright/test";
import { MAPLIBRE_WORKER_NAME } from "./lib/bare-map-page";
import { freshContext, launchChromium, signIn, VIEWPORT, type StorageState } from "./lib/browser";
import { seedDashboard } from "./lib/dashboard-fixture";
import { fmt } from "./lib/file-report";
import { describeBuild, ensureNextBuild, type BuildMode, type BuildOutcome } from "./lib/next-build";
import type { Supervisor } from "./lib/processes";
import { readAdminToken, startApi, type RunningApi } from "./lib/targets";
import { defineBenchmark } from "./lib/benchmark";

/** Bytes (kB = 1,000 bytes, as `next build` prints them). */
export const BUDGET_BYTES = 180_000;
/** Submissions in the mission whose page is measured (the map's data is not JavaScript). */
const MISSION_SUBMISSIONS = 100;
const LOAD_TIMEOUT_MS = 120_000;
/** Scripts are done once none was requested or in flight for this long after the load event. */
const QUIET_MS = 2_000;
/** Text only map code contains: MapLibre's CSS class prefix, and its worker's name (the worker itself is known by its URL). */
const MAP_CODE_MARKERS = ["maplibregl", MAPLIBRE_WORKER_NAME];

interface PageSpec {
  path: string;
  signedIn: boolean;
  /** Whether the page shows a map: the budget and the no-map-code check apply to the others. */
  map: boolean;
}

function pages(missionId: string, order: SeededOrder): PageSpec[] {
  const draft = `?draft=${order.draftId}`;
  return [
    { path: "/sign-in", signedIn: false, map: false },
    { path: "/missions", signedIn: true, map: false },
    { path: "/webhooks", signedIn: true, map: false },
    { path: "/settings/credentials", signedIn: true, map: false },
    { path: `/missions/${missionId}`, signedIn: true, map: true },
    { path: "/missions/new", signedIn: true, map: true },
    { path: "/orders", signedIn: true, map: false },
    { path: "/orders/new", signedIn: true, map: false },
    { path: `/orders/new/locations${draft}`, signedIn: true, map: true },
    { path: `/orders/new/what${draft}`, signedIn: true, map: false },
    { path: `/orders/new/when${draft}`, signedIn: true, map: false },
    { path: `/orders/new/delivery${draft}`, signedIn: true, map: false },
    { path: `/orders/new/review${draft}`, signedIn: true, map: false },
    { path: `/orders/${order.orderId}`, signedIn: true, map: true },
  ];
}

/** Where a page ended, as its spec names it (the wizard's steps carry their draft in the query). */
function pathAndQuery(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

interface SeededOrder {
  draftId: string;
  orderId: string;
}

/** A filled-in wizard draft and a paid order of the seeded organisation, made through the order interface with an API key. */
async function seedOrders(app: RunningApi): Promise<SeededOrder> {
  const admin = readAdminToken(app);
  const call = async <T>(path: string, token: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${app.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `bench-${path}-${Date.now()}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const { data: orgs } = await call<{ data: { id: string }[] }>(`/api/admin/v1/orgs?q=${encodeURIComponent("Benchmark partner")}`, admin);
  const orgId = orgs[0]?.id;
  if (!orgId) throw new Error("the benchmark organisation is missing");
  const { api_key: key } = await call<{ api_key: string }>(`/api/admin/v1/orgs/${orgId}/api-keys`, admin, { name: "first-load-js" });
  const body = {
    client_reference: "bench-weekly",
    category: "cultural_exterior",
    requirements: { angles: ["front", "overview"] },
    locations: [
      { location_id: "loc_duomo", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } },
      { location_id: "loc_uffizi", name: "Uffizi", coordinates: { lat: 43.7678, lng: 11.2553 } },
    ],
    recurring: { enabled: true, frequency: "weekly", day_of_week: 5 },
  };
  const draft = await call<{ id: string }>("/api/orders/v1/drafts", key, { body, step: "review" });
  const order = await call<{ id: string }>("/api/orders/v1/orders", key, body);
  await call(`/api/orders/v1/orders/${order.id}/confirm`, key, { payment_method: "card" });
  return { draftId: draft.id, orderId: order.id };
}

export interface ScriptFile {
  url: string;
  /** Named in the document's HTML (what `next build` calls first-load JS), or fetched later (lazy chunks, prefetched routes). */
  inHtml: boolean;
  rawBytes: number;
  gzipBytes: number;
  /** Body bytes on the wire (compressed when the server compressed it); null when the browser does not say. */
  transferBytes: number | null;
  contentEncoding: string | null;
  mapCode: boolean;
}

export interface PageResult {
  path: string;
  signedIn: boolean;
  map: boolean;
  /** Status of the document (after redirects) and where it ended. */
  status: number;
  finalPath: string;
  scripts: ScriptFile[];
  rawBytes: number;
  gzipBytes: number;
  /** Of the scripts whose transfer size is known. */
  transferBytes: number;
  transferUnknown: number;
  /** gzip bytes of the scripts named in the HTML only. */
  htmlGzipBytes: number;
  /** Requests still unanswered when scripts were quiet (e.g. a prefetch that never completes). */
  openRequests: string[];
  /** gzip bytes ÷ budget. */
  ratio: number;
  mapCodeFiles: string[];
  verdict: "pass" | "over budget" | "map code loaded" | "over budget, map code loaded" | "map page (budget not applied)" | "page missing";
}

export interface FirstLoadJsResults {
  benchmark: "first-load-js";
  goal: string;
  budgetBytes: number;
  nextBuild: BuildOutcome;
  browser?: { version: string; viewport: typeof VIEWPORT };
  pages: PageResult[];
  notRun?: string;
}

export interface FirstLoadJsOptions {
  supervisor: Supervisor;
  build: BuildMode;
}

const log = (message: string) => console.error(`[bench] first-load-js: ${message}`);

async function describeScript(response: Response, html: Set<string>): Promise<ScriptFile> {
  const body = await response.body();
  const sizes = await response.request().sizes();
  const path = new URL(response.url()).pathname;
  const text = body.toString("utf8");
  // Chromium reports no body size for a worker's script: its Content-Length if any, else unknown.
  const contentLength = Number((await response.headerValue("content-length")) ?? NaN);
  return {
    url: response.url(),
    inHtml: html.has(path),
    rawBytes: body.length,
    gzipBytes: gzipSync(body, { level: 6 }).length,
    transferBytes: sizes.responseBodySize || (Number.isFinite(contentLength) ? contentLength : null),
    contentEncoding: (await response.headerValue("content-encoding")) ?? null,
    mapCode: path.includes(`/${MAPLIBRE_WORKER_NAME}.`) || MAP_CODE_MARKERS.some((marker) => text.includes(marker)),
  };
}

function verdictOf(spec: PageSpec, status: number, gzipBytes: number, mapCode: boolean): PageResult["verdict"] {
  if (status === 404) return "page missing";
  if (spec.map) return "map page (budget not applied)";
  const over = gzipBytes > BUDGET_BYTES;
  if (over && mapCode) return "over budget, map code loaded";
  if (over) return "over budget";
  if (mapCode) return "map code loaded";
  return "pass";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One first visit: every script response until scripts are quiet after the load event. */
async function measurePage(browser: Browser, origin: string, spec: PageSpec, storage: StorageState): Promise<PageResult> {
  const context = await freshContext(browser, spec.signedIn ? storage : undefined);
  try {
    const page = await context.newPage();
    const scripts: Response[] = [];
    const open = new Set<Request>();
    let scriptsInFlight = 0;
    let lastScriptActivity = Date.now();
    const isScript = (request: Request) => request.resourceType() === "script" || request.url().endsWith(".mjs");
    page.on("request", (request) => {
      open.add(request);
      if (!isScript(request)) return;
      scriptsInFlight++;
      lastScriptActivity = Date.now();
    });
    const settled = (request: Request) => {
      open.delete(request);
      if (!isScript(request)) return;
      scriptsInFlight--;
      lastScriptActivity = Date.now();
    };
    page.on("requestfinished", settled);
    page.on("requestfailed", settled);
    page.on("response", (response) => {
      if (isScript(response.request())) scripts.push(response);
    });
    const document = await page.goto(`${origin}${spec.path}`, { waitUntil: "load", timeout: LOAD_TIMEOUT_MS });
    // A map's code arrives in steps (the map's chunk, then MapLibre's, then its worker), with
    // rendering between them that can outlast any quiet period on a busy machine: wait for the map.
    if (spec.map) await page.locator('[data-map-state="ready"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const deadline = Date.now() + LOAD_TIMEOUT_MS;
    while (scriptsInFlight > 0 || Date.now() - lastScriptActivity < QUIET_MS) {
      if (Date.now() > deadline) throw new Error(`${spec.path}: scripts still loading after ${LOAD_TIMEOUT_MS / 1000} s`);
      await sleep(100);
    }
    // The script URLs the server-rendered HTML names (script tags and preloads).
    const htmlText = document ? await document.text() : "";
    const html = new Set([...htmlText.matchAll(/\/_next\/static\/[^"'\s)]+?\.js/g)].map((m) => m[0]));
    const files = await Promise.all(scripts.map((response) => describeScript(response, html)));
    const total = (list: ScriptFile[], pick: (f: ScriptFile) => number) => list.reduce((sum, f) => sum + pick(f), 0);
    const gzipBytes = total(files, (f) => f.gzipBytes);
    const mapCodeFiles = files.filter((f) => f.mapCode).map((f) => new URL(f.url).pathname);
    const status = document?.status() ?? 0;
    return {
      path: spec.path,
      signedIn: spec.signedIn,
      map: spec.map,
      status,
      finalPath: pathAndQuery(page.url()),
      scripts: files,
      rawBytes: total(files, (f) => f.rawBytes),
      gzipBytes,
      transferBytes: total(files, (f) => f.transferBytes ?? 0),
      transferUnknown: files.filter((f) => f.transferBytes === null).length,
      htmlGzipBytes: total(
        files.filter((f) => f.inHtml),
        (f) => f.gzipBytes,
      ),
      openRequests: [...open].map((request) => `${request.resourceType()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`),
      ratio: Math.round((gzipBytes / BUDGET_BYTES) * 1000) / 1000,
      mapCodeFiles,
      verdict: verdictOf(spec, status, gzipBytes, mapCodeFiles.length > 0),
    };
  } finally {
    await context.close();
  }
}

export async function runFirstLoadJs(options: FirstLoadJsOptions): Promise<FirstLoadJsResults> {
  const { supervisor } = options;
  const goal = `first-load JavaScript of non-map pages ≤ ${BUDGET_BYTES / 1000} kB compressed; MapLibre's code only on map pages`;
  const nextBuild = await ensureNextBuild(supervisor, options.build);
  if (!nextBuild.usable) return { benchmark: "first-load-js", goal, budgetBytes: BUDGET_BYTES, nextBuild, pages: [], notRun: nextBuild.reason };

  const dataDir = supervisor.tempDir("first-load-js-data");
  const seeded = await seedDashboard(dataDir, [MISSION_SUBMISSIONS], log);
  const mission = seeded.missions[0];
  if (!mission) throw new Error("no mission seeded");
  const app = await startApi(supervisor, "next", { dataDir });
  const browser = await launchChromium();
  try {
    const order = await seedOrders(app);
    const storage = await signIn(browser, app.url, seeded.user);
    const results: PageResult[] = [];
    for (const spec of pages(mission.id, order)) {
      const result = await measurePage(browser, app.url, spec, storage);
      log(`${spec.path}: ${result.status}, ${result.scripts.length} scripts, ${fmt(result.gzipBytes / 1000, 1)} kB gzip`);
      results.push(result);
    }
    return {
      benchmark: "first-load-js",
      goal,
      budgetBytes: BUDGET_BYTES,
      nextBuild,
      browser: { version: browser.version(), viewport: VIEWPORT },
      pages: results,
    };
  } finally {
    await browser.close();
    await app.process.stop();
  }
}

// ---- report ---------------------------------------------------------------------------------

const kB = (bytes: number) => `${fmt(bytes / 1000, 1)} kB`;

export function firstLoadJsHeader(): string[] {
  return [
    `- first-load-js: Chromium (${VIEWPORT.width}×${VIEWPORT.height}), one first visit per page in a fresh context, every script fetched until scripts are quiet ` +
      `(after the load event, and the map's ready state on map pages, none requested or in flight for ${QUIET_MS / 1000} s), ` +
      `gzip -6 of each body and the bytes transferred; budget ${BUDGET_BYTES / 1000} kB (kB = 1,000 bytes)`,
  ];
}

export function formatFirstLoadJs(results: FirstLoadJsResults): string {
  const lines = [`### first-load-js — ${results.goal}`, ""];
  lines.push(describeBuild(results.nextBuild));
  if (results.notRun) return [...lines, "", `Not run: ${results.notRun}`].join("\n");
  lines.push(
    "Map code = MapLibre's worker, or a script containing `maplibregl` or the worker's URL. Transferred = body bytes on the wire (`next start` compresses its chunks with gzip; a worker script's size is its Content-Length). " +
      '"Named in the HTML" = the scripts the server-rendered HTML lists (what `next build` calls first-load JS); the rest came later (lazy chunks such as the map, and chunks of routes prefetched by links).',
    "",
    "| page | status | scripts | raw | gzip -6 | of which named in the HTML | transferred | gzip ÷ budget | map code | verdict |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...results.pages.map(
      (p) =>
        `| \`${p.path}\`${p.finalPath !== p.path ? ` → \`${p.finalPath}\`` : ""} | ${p.status} | ${p.scripts.length} | ${kB(p.rawBytes)} | ${kB(p.gzipBytes)} | ${kB(p.htmlGzipBytes)} | ${kB(p.transferBytes)}${p.transferUnknown ? ` + ${p.transferUnknown} unknown` : ""} | ${fmt(p.ratio, 2)} | ` +
        `${p.mapCodeFiles.length ? p.mapCodeFiles.map((f) => `\`${f.split("/").at(-1) ?? f}\``).join(", ") : "none"} | ${p.verdict === "pass" ? "pass" : p.verdict === "page missing" || p.verdict.startsWith("map page") ? p.verdict : `**${p.verdict}**`} |`,
    ),
  );
  const open = results.pages.filter((p) => p.openRequests.length);
  if (open.length)
    lines.push(
      "",
      "Requests still unanswered when scripts were quiet (they would hold off `networkidle`):",
      ...open.map((p) => `- \`${p.path}\`: ${p.openRequests.map((r) => `\`${r}\``).join(", ")}`),
    );
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "first-load-js",
  header: firstLoadJsHeader,
  run: ({ supervisor, options }) => runFirstLoadJs({ supervisor, build: options.build }),
  format: formatFirstLoadJs,
});
