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
  await page.route("**/field/api/submissions/**", (route) => (signal ? route.continue() : route.abort("internetdisconnected")));
  await page.route("**/field/api/missions/*/submissions", async (route) => {
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
