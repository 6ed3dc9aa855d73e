// The mission editor's basemaps, each at city zoom (the new-mission view), with a screenshot of
// each in SCREENSHOT_DIR:
// - the test server's offline basemap (MAP_BASEMAP=offline), its assets compressed and cached;
// - a street style that never answers (a loopback port that accepts and stays silent): the map
//   falls back to the offline basemap by itself and says so; then imagery from a loopback raster
//   tile server, remembered after a reload;
// - self-hosted streets from a PMTiles archive the test writes from GeoJSON it makes.
// The last two run their own instance of the app (e2e/support/extra-server.ts). Nothing may leave
// the machine: every request any page makes is checked to stay on loopback.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Browser, BrowserContext, Page, Response } from "@playwright/test";

import { NEW_MISSION_VIEW } from "@/lib/map/default-view";
import { streetGrid } from "@/lib/map/testing/street-grid";
import { writePmtiles, type Bbox } from "@/lib/map/testing/write-pmtiles";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { SignInPage } from "./pages/sign-in-page";
import { expectNoSeriousViolations } from "./support/axe";
import { startExtraServer, type ExtraServer } from "./support/extra-server";
import { expect, test } from "./support/fixtures";
import { startRasterTileServer, startSilentServer, type LoopbackServer } from "./support/loopback-tiles";
import { Operator } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

const DESKTOP = { width: 1280, height: 800 };
const LOOPBACK = new Set(["localhost", "127.0.0.1"]);

/** Fails the test when the page asks for anything off this machine. */
function recordOffMachineRequests(page: Page): string[] {
  const offMachine: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && !LOOPBACK.has(url.hostname)) offMachine.push(request.url());
  });
  return offMachine;
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled" });
}

/** A signed-in administrator of a new organisation on `server`, in a browser context of its own. */
async function signInOn(server: ExtraServer, browser: Browser, request: APIRequestContext): Promise<{ context: BrowserContext; page: Page }> {
  const operator = new Operator(request, server.adminToken);
  const org = await operator.createOrg("Basemap");
  const admin = await operator.createUser(org.id, "admin");
  const context = await browser.newContext({ baseURL: server.origin, viewport: DESKTOP });
  const page = await context.newPage();
  await new SignInPage(page).signInAs(admin);
  return { context, page };
}

test.describe("the offline basemap (the test server)", () => {
  test("the editor opens at city zoom on the offline basemap, its files compressed and cached for a year", async ({ page, partner, signIn }) => {
    await page.setViewportSize(DESKTOP);
    const offMachine = recordOffMachineRequests(page);
    const assets: Response[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/map-assets/")) assets.push(response);
    });
    await signIn.signInAs(partner.admin);
    const editor = new MissionEditorPage(page);
    await editor.gotoNew();
    await editor.waitForMap();

    // Only the offline basemap is configured: no switcher, nothing to announce.
    await expect(editor.basemapSwitcher).toHaveCount(0);
    await expect(editor.basemapNotice).toHaveCount(0);

    const places = assets.find((r) => /^\/map-assets\/[0-9a-f]{16}\/places\.geojson$/.test(new URL(r.url()).pathname));
    const glyphs = assets.find((r) => /^\/map-assets\/[0-9a-f]{16}\/fonts\/Inter%20(Regular|Bold)\/\d+-\d+\.pbf$/.test(new URL(r.url()).pathname));
    expect(places, "places.geojson from the hashed path").toBeDefined();
    expect(glyphs, "a glyph range from the hashed path").toBeDefined();
    for (const response of [places, glyphs]) {
      const headers = (await response?.allHeaders()) ?? {};
      // Chromium asks for brotli over https only; over this http origin it gets gzip.
      expect(headers["content-encoding"]).toMatch(/^(br|gzip)$/);
      expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    expect((await glyphs?.allHeaders())?.["content-type"]).toBe("application/x-protobuf");

    await screenshot(page, "basemap-offline-editor");
    await expectNoSeriousViolations(page);
    expect(offMachine).toEqual([]);
  });
});

test.describe("a street style that never answers, and imagery", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let silent: LoopbackServer;
  let tiles: Awaited<ReturnType<typeof startRasterTileServer>>;
  let server: ExtraServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    silent = await startSilentServer();
    tiles = await startRasterTileServer();
    server = await startExtraServer({
      MAP_BASEMAP: "streets",
      MAP_STYLE_URL: `http://127.0.0.1:${silent.port}/styles/liberty`,
      MAP_IMAGERY_URL: `http://127.0.0.1:${tiles.port}/{z}/{x}/{y}.png`,
      MAP_IMAGERY_ATTRIBUTION: "Loopback test imagery",
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await tiles?.close();
    await silent?.close();
  });

  test("falls back to the offline basemap by itself and says so; imagery is one click away and remembered", async ({ browser, playwright }) => {
    const request = await playwright.request.newContext({ baseURL: server.origin });
    const { context, page } = await signInOn(server, browser, request);
    const offMachine = recordOffMachineRequests(page);
    const editor = new MissionEditorPage(page);
    await editor.gotoNew();

    // Streets is the default choice; its style never arrives, so after a few seconds the offline
    // basemap shows, with one quiet line saying why.
    await expect(editor.basemap("Streets")).toBeChecked();
    await expect(editor.basemapNotice).toBeVisible({ timeout: 20_000 });
    await editor.waitForMap();
    await expect(editor.basemapNotice).toHaveText("Street map unreachable: showing the offline basemap.");
    // The switcher marks what is on screen: Offline, not a Streets that is not showing.
    await expect(editor.basemap("Offline")).toBeChecked();
    await expect(editor.basemap("Streets")).not.toBeChecked();
    await expect(editor.mapFrame.getByText("Natural Earth")).toBeAttached();
    await screenshot(page, "basemap-streets-unreachable-editor");
    await expectNoSeriousViolations(page);

    // Imagery: drawn from the loopback tile server at the same city zoom, credited.
    await editor.basemap("Imagery").check();
    await expect.poll(() => tiles.served()).toBeGreaterThan(0);
    await editor.waitForMap();
    await expect(editor.basemapNotice).toHaveCount(0);
    await expect(editor.mapFrame.getByText("Loopback test imagery")).toBeAttached();
    expect(Math.min(...tiles.zooms())).toBeGreaterThanOrEqual(11);
    await page.waitForLoadState("networkidle");
    await screenshot(page, "basemap-imagery-editor");

    // Remembered for this user: the next visit opens on imagery.
    await page.reload();
    await expect(editor.basemap("Imagery")).toBeChecked();
    await editor.waitForMap();
    await expect(editor.basemapNotice).toHaveCount(0);

    expect(offMachine).toEqual([]);
    await context.close();
    await request.dispose();
  });
});

test.describe("self-hosted streets from a PMTiles archive", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let server: ExtraServer;
  // The new-mission view and a margin around it.
  const AREA: Bbox = [NEW_MISSION_VIEW[0] - 0.02, NEW_MISSION_VIEW[1] - 0.01, NEW_MISSION_VIEW[2] + 0.02, NEW_MISSION_VIEW[3] + 0.01];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    server = await startExtraServer({ MAP_BASEMAP: "pmtiles" }, (dataDir) => {
      writeFileSync(join(dataDir, "basemap.pmtiles"), writePmtiles({ layers: streetGrid(AREA, 16), bbox: AREA, minZoom: 8, maxZoom: 15 }));
    });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("draws the streets of the generated archive, read by byte ranges from our own origin", async ({ browser, playwright }) => {
    const request = await playwright.request.newContext({ baseURL: server.origin });
    const { context, page } = await signInOn(server, browser, request);
    const offMachine = recordOffMachineRequests(page);
    const ranges: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/map-assets/basemap.pmtiles") ranges.push(response.status());
    });
    const editor = new MissionEditorPage(page);
    await editor.gotoNew();
    await editor.waitForMap();

    await expect(editor.basemap("Streets")).toBeChecked();
    await expect(editor.basemapNotice).toHaveCount(0);
    await expect(editor.mapFrame.getByText("Protomaps")).toBeAttached();
    // The header and root directory, then tiles: all partial responses.
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ranges)).toEqual(new Set([206]));
    await page.waitForLoadState("networkidle");
    await screenshot(page, "basemap-pmtiles-editor");
    await expectNoSeriousViolations(page);

    expect(offMachine).toEqual([]);
    await context.close();
    await request.dispose();
  });
});
