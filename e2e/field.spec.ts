// The field page on a phone-sized screen: a demo zoomer signs in, picks a mission near the demo
// location, sends a geotagged photo and sees the QA verdict arrive.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { SCREENSHOT_DIR } from "./support/server";

test.use({ viewport: { width: 390, height: 844 } });

test("a zoomer sends a photo to a mission nearby and sees it approved", async ({ page }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await expect(field.missions.first()).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-missions.png"), fullPage: true });

  // The session token lives in an httpOnly cookie: page scripts cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("pm_field_session");

  await field.mission(/Duomo/).click();
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 4242 });
  await field.photosInput.setInputFiles({ name: "IMG_4242.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();

  await expect(field.verdict).toHaveAttribute("data-phase", "approved", { timeout: 30_000 });
  await expect(field.verdict.getByRole("img", { name: "Your photo" })).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-approved.png"), fullPage: true });
});

test("a photo taken outside the mission is rejected with a reason the zoomer can act on", async ({ page }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field
    .mission(/Santa Croce|Signoria/)
    .first()
    .click();
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, capturedAt: new Date(), seed: 4343 });
  await field.photosInput.setInputFiles({ name: "IMG_4343.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", /approved|rejected/, { timeout: 30_000 });
  await expect(field.verdict).toHaveAttribute("data-phase", "rejected");
  await expect(field.verdict.getByRole("listitem")).toContainText(/outside the mission area/);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-outbox-rejected.png"), fullPage: true });
});

test("without a session the field API answers 401", async ({ request }) => {
  const res = await request.get("/field/api/missions?lat=43.77&lng=11.25");
  expect(res.status()).toBe(401);
});

// The service worker's registration used to throw on /field: @serwist's cacheOnNavigation wraps
// history.pushState/replaceState and posts each call's URL argument to the worker as is, and a URL
// object cannot be cloned (an uncaught DataCloneError, at 7d9434e on every tab switch, which
// called replaceState with one). Production build only: the worker is off in development.
test("/field registers its service worker and loads, reloads and navigates with no uncaught error", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror ${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (/DataCloneError|could not be cloned/i.test(message.text())) errors.push(`console ${message.type()}: ${message.text()}`);
  });
  const field = new FieldPage(page);
  await field.goto();
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe("/field");

  await field.demoSignIn.click();
  await field.demoLocation.click();
  await expect(field.missions.first()).toBeVisible();
  // A tab switch writes the address (history.replaceState), and so may any library: with a URL
  // object too, nothing throws.
  await page.getByRole("tab", { name: /Tasks/ }).click();
  await expect(page).toHaveURL(/\/field\?tab=tasks$/);
  await page.getByRole("tab", { name: /Missions/ }).click();
  await expect(page).toHaveURL(/\/field$/);
  await page.evaluate(() => window.history.replaceState(window.history.state, "", new URL(window.location.href)));

  // Reloaded, the page is the worker's. (The demo place is not kept across a reload, only a
  // place the phone found with permission granted: the page asks again.)
  const signedIn = page.getByRole("heading", { name: "Work near you" });
  await page.reload();
  await expect(signedIn).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/field\/serwist\/sw\.js$/);

  // Away to the home page and back by its link, then back and forward in history.
  await page.goto("/");
  await page.getByRole("link", { name: /Field app/ }).click();
  await expect(page).toHaveURL(/\/field$/);
  await expect(signedIn).toBeVisible();
  await field.demoLocation.click();
  await expect(field.missions.first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await expect(signedIn).toBeVisible();
  // Long enough for the worker's messages of the last page to be answered.
  await page.waitForTimeout(1500);
  expect(errors, "no uncaught error, no DataCloneError in the console").toEqual([]);
});
