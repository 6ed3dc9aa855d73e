// The checks on the phone before a photo is sent, on a phone-sized screen: a photo taken far away,
// facing away, at night and too dark shows each failing check with what to do — before anything
// is sent, and the zoomer may still send; the same photo chosen a second time is flagged as
// already waiting and is kept once. Screenshots at 390 px and 1366 px go to SHOTS_DIR
// (default test-results/screenshots) to be looked at.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { zonedTimeToUtc } from "@/lib/geo/time-zone";
import { FieldPage } from "./pages/field-page";
import { FieldTasksPage } from "./pages/field-tasks-page";
import { expect, test } from "./support/fixtures";
import { confirmedFieldOrder, fieldOrderKey } from "./support/orders";
import { unique } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

test.use({ viewport: { width: 390, height: 844 }, locale: "en-GB" });
test.setTimeout(120_000);

/** Where "Use the demo location" puts the zoomer (components/field/types.ts). */
const DEMO = { lat: 43.7712, lng: 11.2555 };
const SHOTS = process.env.SHOTS_DIR ?? SCREENSHOT_DIR;

/** 01:30 tonight in Florence: the sun is down whatever the season. */
function lastNightInRome(): Date {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Rome" }).format(new Date());
  return zonedTimeToUtc(today, "01:30", "Europe/Rome");
}

/** The same screen at a phone's and a laptop's width. */
async function shots(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
}

test("a photo taken far away, facing away, at night and too dark shows failing checks with instructions before sending", async ({ page, operator }) => {
  // About 180 m south-east of the demo location; the order asks for daylight.
  const place = { name: unique("E2E Loggia dei Lanzi"), lat: DEMO.lat - 0.0012, lng: DEMO.lng + 0.0015 };
  await confirmedFieldOrder(page.request, await fieldOrderKey(operator), place, "daylight");
  const field = new FieldTasksPage(page);
  await field.openTasksAtDemoLocation();
  await field.open(place.name, /Front/);

  // The card states every requirement, and whether the light's window is open now.
  await expect(field.detail.getByTestId("task-where")).toHaveText(`Within 60 m of ${place.name}, facing it (within 35°)`);
  await expect(field.detail.getByTestId("task-time-of-day")).toHaveText(
    /^Daylight: \d\d:\d\d–\d\d:\d\d Rome time, \w{3} \d{1,2} \w{3} · (open now|opens .+|closed)$/,
  );
  await field.take.click();

  // 2 km south of the place, facing south, at 01:30, a quarter of the light a photo needs.
  const photo = await makePhoto({
    lat: place.lat - 2000 / 111_320,
    lng: place.lng,
    accuracyM: 5,
    directionDeg: 180,
    capturedAt: lastNightInRome(),
    utcOffsetMinutes: 60,
    exposure: 0.12,
    seed: 8101,
  });
  await field.photoInput.setInputFiles({ name: "IMG_8101.jpg", mimeType: "image/jpeg", buffer: photo });

  const checks = page.getByTestId("pre-send-checks");
  const check = (name: string) => checks.locator(`[data-check="${name}"]`);
  await expect(check("exposure")).toHaveAttribute("data-outcome", "failed");
  for (const name of ["location_match", "angle_match", "time_of_day"]) await expect(check(name)).toHaveAttribute("data-outcome", "failed");
  // The checks' sentences come from their codes (messages/<locale>/codes.json); the place's name is isolated (U+2068 … U+2069).
  await expect(check("location_match")).toContainText(new RegExp(`Stand within 60 m of \u2068${place.name}\u2069: you were [\\d,]+(\\.\\d)? m away\\.`));
  await expect(check("angle_match")).toContainText(`Face \u2068${place.name}\u2069 (front), to the north of where you stood`);
  await expect(check("time_of_day")).toContainText(/Come back in daylight, between sunrise \(\d\d:\d\d\) and sunset \(\d\d:\d\d\) local time\./);
  await expect(check("exposure")).toContainText(/the photo is too dark/);
  // So dark that little contrast is left: judged as the server would, on the phone's scaled copy.
  await expect(check("sharpness")).toHaveAttribute("data-outcome", /^(passed|failed)$/);
  await expect(check("duplicate")).toHaveAttribute("data-outcome", "passed");
  // Nothing has been sent: the zoomer may still send, the server decides.
  await expect(page.getByTestId("outbox-entry")).toHaveCount(0);
  await expect(field.send).toBeEnabled();
  await expect(checks).toContainText("You may still send");
  await shots(page, "field-task-pre-send-checks");
});

test("the same photo chosen twice for a mission is flagged as already waiting, and kept once", async ({ page, context }) => {
  const field = new FieldPage(page);
  await field.goto();
  await field.demoSignIn.click();
  await field.demoLocation.click();
  await field.mission(/Duomo/).click();

  // Taken inside the Duomo mission's area, in good light.
  const photo = await makePhoto({ lat: 43.7733, lng: 11.2562, accuracyM: 5, directionDeg: 200, capturedAt: new Date(), seed: 8202 });
  const file = { name: "IMG_8202.jpg", mimeType: "image/jpeg", buffer: photo };
  await context.setOffline(true);
  await field.photosInput.setInputFiles(file);
  const checks = page.getByTestId("pre-send-checks");
  await expect(checks.locator('[data-check="duplicate"]')).toHaveAttribute("data-outcome", "passed");
  await expect(checks.locator('[data-check="inside_bounds"]')).toHaveAttribute("data-outcome", "passed");
  await field.send.click();
  await expect(field.outbox).toHaveCount(1);
  await expect(field.verdict).toHaveAttribute("data-phase", "waiting");

  // A copy of the same photo under another name: the same bytes.
  await field.photosInput.setInputFiles({ ...file, name: "IMG_8202 copy.jpg" });
  const duplicate = checks.locator('[data-check="duplicate"]');
  await expect(duplicate).toHaveAttribute("data-outcome", "failed");
  await expect(duplicate).toContainText("This photo is already waiting to be sent");
  await shots(page, "field-mission-duplicate");
  await field.send.click();
  await expect(page.getByTestId("duplicate-photo")).toContainText("Already waiting to be sent, so not kept twice: IMG_8202 copy.jpg.");
  await expect(field.outbox).toHaveCount(1);

  // Back online, the one photo is sent once.
  await context.setOffline(false);
  await expect(field.verdict).not.toHaveAttribute("data-phase", "waiting", { timeout: 30_000 });
  await expect(field.outbox).toHaveCount(1);
});
