// The field page where the signal comes and goes, on a phone-sized screen: the verdict poll
// survives a drop, the page opens offline after one visit, and photos wait in the outbox until
// they can be sent.
import { expect, test } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { FieldPage } from "./pages/field-page";

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

  await expect(field.verdict).toContainText("Checking your photos");
  await context.setOffline(true);
  await expect(page.getByTestId("verdict-waiting")).toBeVisible();
  // Long enough for the server's verdict (about 2 s) to be ready while the phone cannot ask.
  await page.waitForTimeout(4000);
  await expect(field.verdict).toHaveAttribute("data-status", "received");

  signal = true;
  await context.setOffline(false);
  await expect(field.verdict).toHaveAttribute("data-status", "approved", { timeout: 15_000 });
  await expect(page.getByTestId("verdict-waiting")).toBeHidden();
});

test("after one visit /field opens with no network, with the tasks and missions as of that visit", async ({ page, context }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await expect(field.missions.first()).toBeVisible();
  const missionCount = await field.missions.count();
  // The service worker has installed (its precache filled), controls the page and has kept it.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 60_000 }).toBe("activated");
  await expect.poll(() => page.evaluate(async () => Boolean(await caches.match("/field", { ignoreSearch: true }))), { timeout: 30_000 }).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(field.missions).toHaveCount(missionCount);
  await expect(page.getByTestId("saved-at")).toContainText(/as of \d{1,2}[:.]\d{2}/);
  await page.getByRole("tab", { name: /Tasks/ }).click();
  await expect(page.getByRole("tabpanel")).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId("saved-at")).toBeHidden();
});
