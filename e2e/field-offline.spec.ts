// The field page where the signal comes and goes, on a phone-sized screen: the verdict poll
// survives a drop, the page opens offline after one visit, and photos wait in the outbox until
// they can be sent.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page, type Request } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { ORIGIN, SCREENSHOT_DIR } from "./support/server";

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, name), fullPage: true });
}

/** Waits until the service worker controls the page (its precache filled) and has kept /field. */
async function untilKeptOffline(page: Page) {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 60_000 }).toBe("activated");
  await expect.poll(() => page.evaluate(async () => Boolean(await caches.match("/field", { ignoreSearch: true }))), { timeout: 30_000 }).toBe(true);
}

test.use({ viewport: { width: 390, height: 844 } });

test("the verdict shows after the network drops during 'Checking your photos…' and comes back", async ({ page, context }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();

  // The signal goes the moment the upload is answered: every verdict request fails as fetch does
  // with no network (TypeError: Failed to fetch) until it is back.
  let signal = true;
  await context.route("**/field/api/submissions/**", (route) => (signal ? route.continue() : route.abort("internetdisconnected")));
  await context.route("**/field/api/missions/*/submissions", async (route) => {
    const response = await route.fetch();
    signal = false;
    await route.fulfill({ response });
  });

  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4545 });
  await field.photosInput.setInputFiles({ name: "IMG_4545.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();

  await expect(field.verdict).toContainText("Checking your photo");
  await context.setOffline(true);
  await expect(page.getByTestId("verdict-waiting")).toBeVisible();
  await screenshot(page, "field-outbox-checking-no-signal.png");
  // Long enough for the server's verdict (about 2 s) to be ready while the phone cannot ask.
  await page.waitForTimeout(4000);
  await expect(field.verdict).toHaveAttribute("data-phase", "checking");

  signal = true;
  await context.setOffline(false);
  await expect(field.verdict).toHaveAttribute("data-phase", "approved", { timeout: 15_000 });
  await expect(page.getByTestId("verdict-waiting")).toBeHidden();
});

test("after one visit /field opens with no network, with the tasks and missions as of that visit", async ({ page, context }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await expect(field.missions.first()).toBeVisible();
  const missionCount = await field.missions.count();
  await untilKeptOffline(page);

  await context.setOffline(true);
  await page.reload();
  await expect(field.missions).toHaveCount(missionCount);
  await expect(page.getByTestId("saved-at")).toContainText(/as of \d{1,2}[:.]\d{2}/);
  await screenshot(page, "field-offline-as-of.png");
  await page.getByRole("tab", { name: /Tasks/ }).click();
  await expect(page.getByRole("tabpanel")).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId("saved-at")).toBeHidden();
});

test("a photo taken offline waits on the phone, survives a reload, and is sent once when the signal returns", async ({ page, context }, testInfo) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();
  await untilKeptOffline(page);
  // Every way in: the resumable uploads' creations (POST /field/api/uploads) and multipart posts.
  // Counted when they reach the server: without signal the page may still try (a browser can say
  // "online" with one bar, and Chromium 150 under Playwright says so after a reload), and a try
  // that never leaves the phone is not a photo sent.
  const posts: Request[] = [];
  await context.route(/\/field\/api\/(uploads$|missions\/[^/]+\/submissions$)/, (route) => {
    if (route.request().method() === "POST") posts.push(route.request());
    return route.continue();
  });
  const arrived = async () => (await Promise.all(posts.map(async (r) => ((await r.response()) ? new URL(r.url()).pathname : null)))).filter((p) => p !== null);

  await context.setOffline(true);
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4646 + 1000 * testInfo.retry });
  // A retry takes another photo: this one may have reached the server, where a second copy is refused.
  await field.photosInput.setInputFiles({ name: "IMG_4646.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");
  await expect(field.verdict).toContainText("Waiting for signal");
  await expect(field.waitingCount).toHaveAttribute("data-count", "1");
  await expect(field.waitingCount).toContainText("1 photo waiting");
  await screenshot(page, "field-outbox-waiting.png");

  // A reload without signal (or a killed tab): the page opens from the phone, the photo is still there.
  await page.reload();
  await expect(field.outbox).toHaveCount(1);
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");
  await expect(field.waitingCount).toHaveAttribute("data-count", "1");
  expect(await arrived()).toEqual([]);

  await context.setOffline(false);
  await expect(field.verdict).toHaveAttribute("data-phase", "approved", { timeout: 30_000 });
  await expect(field.waitingCount).toHaveAttribute("data-count", "0");
  await screenshot(page, "field-outbox-approved.png");
  // Sent once, by one door: the page's resumable upload, or the service worker's Background Sync
  // (multipart) when it takes the outbox's lock first as the signal returns.
  const sent = await arrived();
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatch(/^\/field\/api\/(uploads|missions\/[^/]+\/submissions)$/);

  // Judged, it may leave the phone.
  await field.verdict.getByRole("button", { name: "Done" }).click();
  await expect(field.outbox).toHaveCount(0);
});

test("with the field page closed, Background Sync has the service worker send the waiting photo", async ({ page, context }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();
  await untilKeptOffline(page);
  const uploads: string[] = [];
  await context.route("**/field/api/missions/*/submissions", (route) => {
    uploads.push(route.request().method());
    return route.continue();
  });

  await context.setOffline(true);
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4848 });
  await field.photosInput.setInputFiles({ name: "IMG_4848.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");

  // The zoomer leaves the field page; the signal returns; the browser fires the sync the page asked for.
  await page.goto("about:blank");
  await context.setOffline(false);
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }: { registrations: { registrationId: string; scopeURL: string }[] }) => {
      const field = registrations.find((r) => r.scopeURL.endsWith("/field"));
      if (field) resolve(field.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.dispatchSyncEvent", { origin: ORIGIN, registrationId: await registration, tag: "field-outbox", lastChance: false });
  await expect.poll(() => uploads.length, { timeout: 30_000 }).toBe(1);

  // Back on the page: the photo was sent (once) while it was closed, and its verdict comes.
  await field.goto();
  await expect(field.verdict).toHaveAttribute("data-phase", "approved", { timeout: 30_000 });
  expect(uploads).toEqual(["POST"]);
});

/** The JPEG padded to `bytes` with comment segments after its EXIF: still a valid photo, as large as a phone's. */
function padJpeg(jpeg: Buffer, bytes: number): Buffer {
  // SOI, then the APP1 (EXIF) segment: the comments go after it so the EXIF stays first.
  const app1End = 4 + jpeg.readUInt16BE(4);
  const segments: Buffer[] = [];
  let missing = bytes - jpeg.length;
  let seed = 7;
  while (missing > 4) {
    const payload = Math.min(65_533, missing - 4);
    const segment = Buffer.alloc(4 + payload);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(payload + 2, 2);
    for (let i = 4; i < segment.length; i++) segment[i] = 0x20 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 90);
    segments.push(segment);
    missing -= segment.length;
  }
  return Buffer.concat([jpeg.subarray(0, app1End), ...segments, jpeg.subarray(app1End)]);
}

test("an 8 MB photo's upload survives three drops and a reload, continues from the server's offset, and arrives once", async ({ page, context }, testInfo) => {
  test.setTimeout(180_000);
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();
  await untilKeptOffline(page);

  // A retry takes another photo: this one may have reached the server, where a second copy is refused.
  const photo = padJpeg(
    await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4747 + 1000 * testInfo.retry }),
    8 * 1024 * 1024,
  );
  const creations: number[] = [];
  const patches: { offset: number; bytes: number }[] = [];
  let abortNextPatch = 0;
  await context.route("**/field/api/uploads**", async (route) => {
    const request = route.request();
    if (request.method() === "POST") creations.push(Number(await request.headerValue("upload-length")));
    if (request.method() === "PATCH") {
      patches.push({ offset: Number(await request.headerValue("upload-offset")), bytes: request.postDataBuffer()?.length ?? 0 });
      // A cut connection in the middle of a chunk (the tus PATCH never answered).
      if (abortNextPatch > 0) {
        abortNextPatch -= 1;
        return route.abort("connectionreset");
      }
      // A weak signal: each chunk takes a while, so the drops below land mid-upload. On a fast
      // machine the whole photo was once sent before the test could go offline.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return route.continue();
  });
  const sentSoFar = () => patches.reduce((n, p) => n + p.bytes, 0);

  await field.photosInput.setInputFiles({ name: "IMG_4747.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();

  // Drop 1: a PATCH cut off.
  await expect.poll(() => patches.length).toBeGreaterThanOrEqual(2);
  abortNextPatch = 1;
  // Drop 2: the phone goes offline for a while.
  await expect.poll(() => patches.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  await context.setOffline(true);
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting", { timeout: 15_000 });
  await page.waitForTimeout(1500);
  await context.setOffline(false);
  // Drop 3 and a reload: the tab goes away mid-upload, the page comes back and resumes.
  await expect.poll(() => patches.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
  abortNextPatch = 1;
  await page.reload();
  await expect(field.outbox).toHaveCount(1);

  await expect(field.verdict).toHaveAttribute("data-phase", /approved|rejected/, { timeout: 90_000 });
  await expect(field.verdict).toHaveAttribute("data-phase", "approved");
  // One upload created, and only the chunks in flight at each drop sent twice.
  expect(creations).toEqual([photo.length]);
  expect(sentSoFar() / photo.length).toBeLessThanOrEqual(1.5);
  // Resumed from the server's offset each time, never from byte 0 again.
  expect(patches.filter((p) => p.offset === 0)).toHaveLength(1);
});
