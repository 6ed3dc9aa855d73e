// The mission editor's search through a configured geocoder (GEOCODER_URL), end to end: an app
// instance of its own (e2e/support/extra-server.ts) pointed at a Nominatim-shaped fake on
// loopback. The dashboard's server asks the geocoder, never the browser; a chosen result moves the
// map there; searches are limited per user; without a session the route answers 401.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MissionEditorPage } from "./pages/mission-editor-page";
import { SignInPage } from "./pages/sign-in-page";
import { startExtraServer, type ExtraServer } from "./support/extra-server";
import { expect, test } from "./support/fixtures";
import { Operator } from "./support/operator";

const PLACE = { name: "Piazza Fittizia, Testville", lat: 45.0703, lng: 7.6869 };

let geocoder: Server;
let geocoderOrigin: string;
const asked: { q: string | null; userAgent: string | undefined }[] = [];
let app: ExtraServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  geocoder = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    asked.push({ q: url.searchParams.get("q"), userAgent: req.headers["user-agent"] });
    res.setHeader("content-type", "application/json");
    // Nominatim's /search?format=jsonv2 shape; bounding box as south, north, west, east strings.
    res.end(
      JSON.stringify([{ display_name: PLACE.name, lat: String(PLACE.lat), lon: String(PLACE.lng), boundingbox: ["45.069", "45.072", "7.685", "7.689"] }]),
    );
  });
  await new Promise<void>((resolve) => geocoder.listen(0, "127.0.0.1", resolve));
  geocoderOrigin = `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`;
  app = await startExtraServer({ GEOCODER_URL: `${geocoderOrigin}/search` });
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise<void>((resolve) => geocoder?.close(() => resolve()));
});

test("a geocoder result, asked by the dashboard's server, moves the editor's map there; searches are limited per user", async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: app.origin });
  const operator = new Operator(request, app.adminToken);
  const org = await operator.createOrg("Geocoder");
  const admin = await operator.createUser(org.id, "admin");
  const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const browserAskedGeocoder: string[] = [];
  page.on("request", (r) => {
    if (r.url().startsWith(geocoderOrigin)) browserAskedGeocoder.push(r.url());
  });
  await new SignInPage(page).signInAs(admin);

  const editor = new MissionEditorPage(page);
  await editor.gotoNew();
  await editor.waitForMap();
  await editor.search.fill("Piazza Fittizia");
  const result = editor.searchResults.filter({ hasText: "Piazza Fittizia" }).first();
  await expect(result).toContainText("geocoder");
  expect(asked.map((a) => a.q)).toContain("Piazza Fittizia");
  expect(browserAskedGeocoder).toEqual([]);

  // Choosing it moves the map: the editor then reads the missions of a small view around it.
  const moved = page.waitForRequest((r) => {
    const bbox = new URL(r.url()).searchParams.get("bbox");
    if (!r.url().includes("/dashboard-api/missions?") || !bbox) return false;
    const [w, s, e, n] = bbox.split(",").map(Number) as [number, number, number, number];
    return w < PLACE.lng && e > PLACE.lng && s < PLACE.lat && n > PLACE.lat && e - w < 0.2;
  });
  await result.click();
  await moved;

  // Five searches at once, then one a second, per user: a burst from one session is refused with 429.
  // Sent together: one after another, a loaded machine answering each in over a second refills the bucket between them.
  const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await page.request.get(`/dashboard-api/geocode?q=burst${i}`)).status()));
  expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
  expect(statuses).toContain(429);
  const limited = await page.request.get("/dashboard-api/geocode?q=burst-again");
  if (limited.status() === 429) expect(Number(limited.headers()["retry-after"])).toBeGreaterThanOrEqual(1);

  // No session, no geocoder.
  expect((await request.get("/dashboard-api/geocode?q=anything")).status()).toBe(401);
  await context.close();
  await request.dispose();
});
