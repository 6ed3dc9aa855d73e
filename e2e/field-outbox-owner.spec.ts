// Two zoomers on one phone (390×844): a photo Z1 took offline waits for Z1. Z1's session runs
// out, Z2 signs in on the same page: Z2 sees only that one photo waits for Z1, by name (no thumbnail, no
// verdict), the page never tries to send it, and the field routes refuse it for Z2's session; the
// service has no submission of either. Z1 signs in again and the photo goes out as Z1's. Sign-out
// warns and keeps what is not sent, and forgets the kept lists. Also: with location permission
// granted a reload keeps the place without a tap, the outbox names the angle once, and no
// uncaught error (the service worker's DataCloneError was one) reaches the page.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page, Request } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";
import { expect, test } from "./support/fixtures";
import { squareAround, unique } from "./support/operator";
import { ORIGIN, SCREENSHOT_DIR } from "./support/server";

test.use({ viewport: { width: 390, height: 844 } });

// A place of this spec's own (Ravenna), so no other spec's mission or submission is in the way.
const PLACE = { lat: 44.4184, lng: 12.2035 };

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, name), fullPage: true });
}

async function signInAs(page: Page, zoomer: { client_id: string; client_secret: string }) {
  await page.getByLabel("Client id").fill(zoomer.client_id);
  await page.getByLabel("Client secret").fill(zoomer.client_secret);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Work near you" })).toBeVisible();
}

/** Every request of the page that would send a photo (tus or multipart), with the owner it names. */
function recordSends(context: BrowserContext): { method: string; path: string; owner: string | null }[] {
  const sends: { method: string; path: string; owner: string | null }[] = [];
  context.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (/^\/field\/api\/(uploads(\/|$)|missions\/[^/]+\/submissions$|assignments\/[^/]+\/photo$)/.test(url.pathname)) {
      sends.push({ method: request.method(), path: url.pathname, owner: request.headers()["x-outbox-owner"] ?? null });
    }
  });
  return sends;
}

test("Z1's photo waits for Z1: never sent under Z2, gone out as Z1's when Z1 signs in again", async ({ page, context, partner, operator }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${error.name}: ${error.message}`));
  await context.grantPermissions(["geolocation"], { origin: ORIGIN });
  await context.setGeolocation({ latitude: PLACE.lat, longitude: PLACE.lng, accuracy: 5 });

  const title = unique("Ravenna basilica");
  const mission = await partner.api.createMission({ title, bounds: squareAround(PLACE.lat, PLACE.lng, 200), required_images: 3 });
  const z1 = await operator.zoomer("Z1");
  const z2 = await operator.zoomer("Z2");
  const sends = recordSends(context);
  const field = new FieldPage(page);

  // Z1 signs in: location permission is granted, so the page finds Z1 without a tap…
  await field.goto();
  await signInAs(page, z1.credentials);
  await expect(page.getByText("Your location: 44.4184, 12.2035")).toBeVisible();
  await expect(page.getByRole("button", { name: "Use my location" })).toHaveCount(0);
  // …and again after a normal reload.
  await page.reload();
  await expect(page.getByText("Your location: 44.4184, 12.2035")).toBeVisible();
  await expect(page.getByRole("button", { name: "Use my location" })).toHaveCount(0);

  // Z1 takes a photo with no signal: it waits on the phone, titled with its angle once.
  await field.mission(new RegExp(title)).click();
  await context.setOffline(true);
  const photo = await makePhoto({ lat: PLACE.lat, lng: PLACE.lng, accuracyM: 5, directionDeg: 90, capturedAt: new Date(), seed: 3201 });
  await field.photosInput.setInputFiles({ name: "Z1-photo.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");
  const entryTitle = (await field.verdict.locator("p").first().textContent()) ?? "";
  expect(entryTitle).toBe(`${title} · Front`);

  // Z1's session runs out while the phone has no signal; the signal returns.
  await context.clearCookies({ name: "pm_field_session" });
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to take photos" })).toBeVisible();
  await expect(page.getByTestId("others-waiting")).toHaveText(`1 photo on this phone is waiting for ${z1.credentials.name} to sign in again.`);

  // Z2 signs in on the same page: Z1's photo shows only as waiting for Z1, with nothing of it.
  const sendsBeforeZ2 = sends.length;
  await signInAs(page, z2.credentials);
  await expect(page.getByTestId("others-waiting")).toHaveText(`1 photo on this phone is waiting for ${z1.credentials.name} to sign in again.`);
  // By name: the zoomer's id is an operator's word, never shown.
  await expect(page.getByTestId("others-waiting")).not.toContainText(z1.credentials.id);
  await expect(field.outbox).toHaveCount(0);
  await expect(page.getByRole("img", { name: "Your photo" })).toHaveCount(0);
  await expect(field.waitingCount).toHaveAttribute("data-count", "0");
  await expect(page.getByText("Z1-photo.jpg")).toHaveCount(0);
  await expect(field.mission(new RegExp(title))).toBeVisible();
  await screenshot(page, "field-outbox-two-zoomers.png");
  // Long enough for the outbox's sends and a retry after its backoff.
  await page.waitForTimeout(5000);
  expect(sends.slice(sendsBeforeZ2), "the page never tries to send Z1's photo with Z2's session").toEqual([]);
  expect(await partner.api.submissions(mission.id)).toEqual([]);

  // Had the page tried, the field routes refuse it for Z2's session, before the service sees it.
  const refused = await page.evaluate(async (owner) => {
    const tries = [
      fetch("/field/api/uploads", { method: "POST", headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "3", "X-Outbox-Owner": owner } }),
      fetch("/field/api/uploads", { method: "POST", headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "3" } }),
    ];
    return Promise.all(tries.map(async (answer) => answer.then(async (res) => ({ status: res.status, code: ((await res.json()) as { code?: string }).code }))));
  }, z1.credentials.id);
  expect(refused).toEqual([
    { status: 409, code: "outbox_owner_mismatch" },
    { status: 409, code: "outbox_owner_mismatch" },
  ]);
  expect(await partner.api.submissions(mission.id)).toEqual([]);

  // Z2 signs out (nothing of Z2's waits: no warning); the phone still keeps Z1's photo.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to take photos" })).toBeVisible();
  await expect(page.getByTestId("others-waiting")).toContainText(z1.credentials.name);

  // Z1 signs in again: the photo goes out, as Z1's, once.
  const sendsBeforeZ1Again = sends.length;
  await signInAs(page, z1.credentials);
  await expect(page.getByTestId("others-waiting")).toHaveCount(0);
  await expect(field.outbox).toHaveCount(1);
  await expect(field.verdict).toHaveAttribute("data-phase", /checking|approved|rejected/, { timeout: 30_000 });
  const submissions = await partner.api.submissions(mission.id);
  expect(submissions).toHaveLength(1);
  expect(submissions[0]).toMatchObject({ zoomer_id: z1.credentials.id });
  const z1Sends = sends.slice(sendsBeforeZ1Again);
  expect(z1Sends.length).toBeGreaterThan(0);
  expect(
    z1Sends.filter((s) => s.owner !== z1.credentials.id),
    "every request of the send names Z1",
  ).toEqual([]);

  expect(errors, "uncaught errors on /field").toEqual([]);
});

test("sign-out warns of the photos not sent yet, keeps them for their owner, and forgets the kept lists", async ({ page, context, partner, operator }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${error.name}: ${error.message}`));
  await context.grantPermissions(["geolocation"], { origin: ORIGIN });
  await context.setGeolocation({ latitude: PLACE.lat, longitude: PLACE.lng, accuracy: 5 });
  const title = unique("Ravenna mausoleum");
  const mission = await partner.api.createMission({ title, bounds: squareAround(PLACE.lat, PLACE.lng, 200), required_images: 3 });
  const z1 = await operator.zoomer("Z1");
  const field = new FieldPage(page);

  await field.goto();
  await signInAs(page, z1.credentials);
  await field.mission(new RegExp(title)).click();
  // The server cannot be reached for uploads: the photo waits.
  await context.route(/\/field\/api\/uploads/, (route) => route.abort("internetdisconnected"));
  const photo = await makePhoto({ lat: PLACE.lat, lng: PLACE.lng, accuracyM: 5, directionDeg: 90, capturedAt: new Date(), seed: 3202 });
  await field.photosInput.setInputFiles({ name: "IMG_3202.jpg", mimeType: "image/jpeg", buffer: photo });
  await field.angle.selectOption("front");
  await field.send.click();
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");
  await page.getByRole("button", { name: "← All missions" }).click();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  const warning = page.getByTestId("sign-out-warning");
  await expect(warning).toContainText("1 photo is not sent yet. It stays on this phone and goes out as yours when you sign in again.");
  await screenshot(page, "field-sign-out-warning.png");
  // Staying changes nothing; signing out keeps the photo.
  await warning.getByRole("button", { name: "Stay signed in" }).click();
  await expect(warning).toHaveCount(0);
  await expect(field.outbox).toHaveCount(1);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign out, keep them" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to take photos" })).toBeVisible();
  await expect(page.getByTestId("others-waiting")).toHaveText(`1 photo on this phone is waiting for ${z1.credentials.name} to sign in again.`);
  await screenshot(page, "field-signed-out-photo-kept.png");

  // The lists and the place kept for offline use are gone with the session.
  const kept = await page.evaluate(
    () =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open("photo-missions-field");
        open.onerror = () => reject(new Error("no database"));
        open.onsuccess = () => {
          const tx = open.result.transaction(["nearby", "place", "outbox"], "readonly");
          const counts = ["nearby", "place", "outbox"].map((name) => tx.objectStore(name).count());
          tx.oncomplete = () => resolve(counts.map((c) => c.result));
        };
      }),
  );
  expect(kept).toEqual([0, 0, 1]);
  expect(await partner.api.submissions(mission.id)).toEqual([]);
  expect(errors, "uncaught errors on /field").toEqual([]);
});
