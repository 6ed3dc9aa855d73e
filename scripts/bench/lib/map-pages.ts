// The map benchmarks' pages in Chromium (map-points, map-frame, lighthouse-mission): the bare
// page's static server (MapLibre, its worker, the offline basemap), a mission's points exactly as
// its page receives them, and one first visit of a page in a fresh context — read by the probe
// (lib/page-probe.ts), or under a Chrome trace (lib/browser-trace.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "@playwright/test";
import { BASEMAP_DIR, MAPLIBRE_DIST, POINTS_DRAWN_MARK, type BuiltWorker } from "./bare-map-page";
import { summariseTrace, TRACE_CATEGORIES, type TraceSummary } from "./browser-trace";
import { freshContext, launchChromium, type StorageState } from "./browser";
import type { SeededMission } from "./dashboard-fixture";
import { fmt } from "./interleave";
import { collectSample, PROBE_SCRIPT, waitForDrawn, type PageSample, type ProbeTarget } from "./page-probe";
import { contentTypeOf, startStaticServer, type StaticServer } from "./static-server";

/** One load, 1,000,000 points on software WebGL on a busy machine included. */
export const LOAD_TIMEOUT_MS = 600_000;

/** A page to visit: where, signed in as whom (none: anonymous), and the mark that says its points are drawn. */
export interface MapPage {
  name: string;
  url: string;
  storage?: StorageState;
  target: ProbeTarget;
}

/** One first visit in a fresh context: navigate, wait for the mark, read the timings. */
export async function loadMapPage(browser: Browser, variant: MapPage): Promise<PageSample> {
  const context = await freshContext(browser, variant.storage);
  const errors: string[] = [];
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(variant.url, { waitUntil: "commit" });
    try {
      await waitForDrawn(page, variant.target, LOAD_TIMEOUT_MS);
    } catch (error) {
      const at = page.url();
      throw new Error(
        `${variant.name}: no ${variant.target.mark} mark for ${variant.target.count} points at ${at} ` +
          `(${error instanceof Error ? error.message.split("\n")[0] : String(error)})${errors.length ? `; page errors: ${errors.join(" | ")}` : ""}`,
      );
    }
    return await collectSample(page, variant.target);
  } finally {
    await context.close();
  }
}

// Names for the scripts in a profile: a chunk's file name says nothing, its content does.
const SCRIPT_MARKERS: [string, string][] = [
  ["maplibregl", "maplibre-gl"],
  [POINTS_DRAWN_MARK, "mission map"],
  ["__reactFiber", "react-dom"],
  ["queryFn", "TanStack Query"],
  ["next-auth", "next-auth"],
];

function describeScript(url: string, body: Buffer | undefined): string {
  const name = new URL(url).pathname.split("/").at(-1) ?? url;
  if (!body) return name;
  const text = body.toString("utf8");
  const found = SCRIPT_MARKERS.filter(([marker]) => text.includes(marker)).map(([, what]) => what);
  return `${name} (${fmt(body.length / 1024)} kB${found.length ? `: ${found.join(", ")}` : ""})`;
}

/** One load like loadMapPage, under a Chrome trace saved as `savedAs`. */
export async function traceMapPage(browser: Browser, variant: MapPage, savedAs: string): Promise<TraceSummary> {
  const context = await freshContext(browser, variant.storage);
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    const scripts = new Map<string, Buffer>();
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      void response
        .body()
        .then((body) => scripts.set(response.url(), body))
        .catch(() => undefined);
    });
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const loaded = page
      .goto(variant.url, { waitUntil: "commit" })
      .then(() => waitForDrawn(page, variant.target, LOAD_TIMEOUT_MS))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const failure = await loaded;
    // Stopped either way: a trace left running would be carried into the next load.
    const trace = await browser.stopTracing();
    if (failure) throw failure;
    return summariseTrace(trace, variant.target.mark, savedAs, (url) => describeScript(url, scripts.get(url)));
  } finally {
    await context.close();
  }
}

/** The points exactly as the mission page receives them (through the dashboard proxy, signed in). */
export async function captureMissionPoints(browser: Browser, storage: StorageState, appUrl: string, mission: SeededMission) {
  const context = await freshContext(browser, storage);
  try {
    // Playwright's default 30 s is too short for the database to write a million points on a busy machine.
    const response = await context.request.get(`${appUrl}/dashboard-api/missions/${mission.id}/submission-points`, { timeout: LOAD_TIMEOUT_MS });
    const body = await response.body();
    if (response.status() !== 200) throw new Error(`submission-points answered ${response.status()}: ${body.toString("utf8").slice(0, 300)}`);
    const parsed = JSON.parse(body.toString("utf8")) as { features?: unknown[] };
    if (parsed.features?.length !== mission.submissions)
      throw new Error(`submission-points returned ${parsed.features?.length ?? "no"} features, ${mission.submissions} were seeded`);
    return { body, contentType: response.headers()["content-type"] ?? "application/json" };
  } finally {
    await context.close();
  }
}

/** The maplibre files, the worker (under the app's path for it), the basemap; the points and bare pages are added per size. */
export async function startBareMapServer(worker: BuiltWorker): Promise<StaticServer> {
  const file = (path: string) => ({ body: readFileSync(path), contentType: contentTypeOf(path) });
  const files = new Map([
    ["/maplibre-gl.mjs", file(join(MAPLIBRE_DIST, "maplibre-gl.mjs"))],
    ["/maplibre-gl.css", file(join(MAPLIBRE_DIST, "maplibre-gl.css"))],
    [worker.path, file(worker.file)],
  ]);
  return startStaticServer(files, { "/basemap": BASEMAP_DIR });
}

/** The CSS size of a (signed-in) mission page's map canvas at `viewport`, e.g. for the bare page's map. */
export async function measureMissionMapSize(
  url: string,
  storage: StorageState,
  viewport: { width: number; height: number },
): Promise<{ width: number; height: number }> {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport, deviceScaleFactor: 1, storageState: storage })).newPage();
    await page.goto(url);
    const box = await page.locator(".maplibregl-canvas").boundingBox({ timeout: 120_000 });
    if (!box) throw new Error("the mission page has no visible .maplibregl-canvas");
    return { width: Math.round(box.width), height: Math.round(box.height) };
  } finally {
    await browser.close();
  }
}
