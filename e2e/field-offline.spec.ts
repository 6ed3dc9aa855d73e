// The field page where the signal comes and goes, on a phone-sized screen: the verdict poll
// survives a drop, the page opens offline after one visit, and photos wait in the outbox until
// they can be sent.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { SCREENSHOT_DIR } from "./support/server";

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

test("a photo taken offline waits on the phone, survives a reload, and is sent once when the signal returns", async ({ page, context }) => {
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
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4646 });
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
  expect(uploads).toEqual([]);

  await context.setOffline(false);
  await expect(field.verdict).toHaveAttribute("data-phase", "approved", { timeout: 30_000 });
  await expect(field.waitingCount).toHaveAttribute("data-count", "0");
  await screenshot(page, "field-outbox-approved.png");
  expect(uploads).toEqual(["POST"]);

  // Judged, it may leave the phone.
  await field.verdict.getByRole("button", { name: "Done" }).click();
  await expect(field.outbox).toHaveCount(0);
});
