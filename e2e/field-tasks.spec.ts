// Order tasks on the field page, on a phone-sized screen: a partner's confirmed order (made
// through the real order API) puts tasks near the demo location; a demo zoomer sees one with its
// distance and direction, takes it, sends a geotagged photo with upload progress, and reads the
// verification — every check, and after a rejection what to do differently and the retake.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { distanceM } from "@/lib/geo/bearing";
import { sunWindowOn } from "@/lib/service/orders/cycles/cycle-calendar";
import { FieldTasksPage } from "./pages/field-tasks-page";
import { describeViolations, expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { confirmedFieldOrder, fieldOrderKey } from "./support/orders";
import { unique } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

// A zoomer whose phone writes times the British way (the page follows the phone's locale; the
// 12-hour case is in phone-width.spec.ts).
test.use({ viewport: { width: 390, height: 844 }, locale: "en-GB" });
// Two uploads' QA and verification run in the app's background worker on a shared machine.
test.setTimeout(180_000);

/** Where "Use the demo location" puts the zoomer (components/field/types.ts). */
const DEMO = { lat: 43.7712, lng: 11.2555 };

type LatLng = { lat: number; lng: number };

/** `metres` due south of a point: a camera there facing 0° looks straight at it. */
const southOf = (p: LatLng, metres = 30): LatLng => ({ lat: p.lat - metres / 111_320, lng: p.lng });

let tmp: string;
test.beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "field-tasks-"));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});
test.afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A phone photo 30 m south of the target facing `directionDeg`, as a file for the file picker. */
async function photoFile(target: LatLng, directionDeg: number, seed: number): Promise<string> {
  const bytes = await makePhoto({ ...southOf(target), accuracyM: 5, directionDeg, capturedAt: new Date(), seed });
  const path = join(tmp, `IMG_${seed}.jpg`);
  writeFileSync(path, bytes);
  return path;
}

/**
 * A slow phone connection for uploads (DevTools network emulation, ~40 KB/s up), so the progress
 * bar moves visibly on a local link; returns the function that lifts it.
 */
async function slowUploads(page: Page): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 40 * 1024 });
  return async () => {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  };
}

async function scan(page: Page, testInfo: TestInfo) {
  await page.mouse.move(1, 1);
  const violations = await expectNoSeriousViolations(page);
  if (violations.length > 0) testInfo.annotations.push({ type: "axe minor/moderate", description: describeViolations(violations) });
}

test("a zoomer takes an order task nearby, sends its photo and sees every check", async ({ page, operator }, testInfo) => {
  // About 245 m north-east of the demo location.
  const place = { name: unique("E2E Loggia"), lat: DEMO.lat + 0.0016, lng: DEMO.lng + 0.0021 };
  await confirmedFieldOrder(page.request, await fieldOrderKey(operator), place);

  const field = new FieldTasksPage(page);
  await field.openTasksAtDemoLocation();
  const card = field.task(place.name);
  await expect(card).toBeVisible();
  await expect(card).toContainText("Front — The whole front of the place");
  await expect(card.getByTestId("task-way")).toContainText(`${Math.round(distanceM(DEMO, place))} m · NE`);
  await expect(card).toContainText(/Deadline\s*\w{3} \d{1,2} \w{3}, \d\d:\d\d \(Rome time\)/);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-tasks.png"), fullPage: true });
  await scan(page, testInfo);
  // The session stays server-side: the page never holds the zoomer's token.
  expect(await page.evaluate(() => document.cookie)).not.toContain("pm_field_session");

  await field.open(place.name, /Front/);
  await expect(page.getByRole("heading", { level: 1, name: place.name })).toBeFocused();
  await expect(field.map).toHaveAttribute("aria-label", /metres to the north-east of you/);
  await field.take.click();
  await expect(field.reservation).toContainText(/Reserved for you until \d\d:\d\d/);

  const fastAgain = await slowUploads(page);
  await field.photoInput.setInputFiles(await photoFile(place, 0, 7101));
  await field.send.click();
  // The bar moves with the bytes sent, not from 0 straight to done.
  await expect
    .poll(
      async () => {
        const sent = Number(await field.progress.getAttribute("aria-valuenow"));
        return sent > 0 && sent < 100;
      },
      { message: "the bar shows the upload part-way", intervals: [100] },
    )
    .toBe(true);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-task-uploading.png"), fullPage: true });
  await expect(field.progress).toBeHidden({ timeout: 30_000 });
  await fastAgain();

  await expect(field.verification).toHaveAttribute("data-status", "approved", { timeout: 60_000 });
  await expect(field.verification).toContainText("Approved");
  for (const name of ["location_match", "angle_match", "quality"]) await expect(field.check(name)).toHaveAttribute("data-outcome", "passed");
  // The local vision model looks at every order photo: nothing stands between the camera and the target.
  await expect(field.check("obstruction")).toHaveAttribute("data-outcome", "passed");
  await expect(field.check("obstruction")).toContainText("Clear view");
  await expect(field.checks).toHaveCount(7);
  await expect(field.retakeOpened).toHaveCount(0);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-task-approved.png"), fullPage: true });
  await scan(page, testInfo);

  // Done: it leaves the list of work near the zoomer.
  await field.backToTasks.click();
  await expect(field.tasks.first().or(page.getByText("No open tasks nearby"))).toBeVisible();
  await expect(field.task(place.name)).toHaveCount(0);
});

test("a task can be given back, and a photo facing away is rejected with what to do and a retake", async ({ page, operator }, testInfo) => {
  // About 180 m south-west of the demo location.
  const place = { name: unique("E2E Chiostro"), lat: DEMO.lat - 0.0012, lng: DEMO.lng - 0.0015 };
  await confirmedFieldOrder(page.request, await fieldOrderKey(operator), place);

  const field = new FieldTasksPage(page);
  await field.openTasksAtDemoLocation();
  await expect(field.task(place.name).getByTestId("task-way")).toContainText("· SW");

  // Take it, give it back: it is open again, for anyone.
  await field.open(place.name);
  await field.take.click();
  await expect(field.reservation).toBeVisible();
  await field.giveBack.click();
  await expect(field.notice).toContainText(`You gave back ${place.name} · Front.`);
  await expect(field.task(place.name)).not.toContainText("Taken by you");

  await field.open(place.name);
  await field.take.click();
  await field.photoInput.setInputFiles(await photoFile(place, 180, 7202));
  await field.send.click();

  await expect(field.verification).toHaveAttribute("data-status", "rejected", { timeout: 60_000 });
  await expect(field.check("angle_match")).toHaveAttribute("data-outcome", "failed");
  await expect(field.check("location_match")).toHaveAttribute("data-outcome", "passed");
  await expect(field.instructions.getByRole("listitem").first()).toContainText(/Face/);
  await expect(field.retakeOpened).toContainText("A retake was opened (retake 1 of 3)");
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-task-rejected.png"), fullPage: true });
  await scan(page, testInfo);

  // The retake: the same place and angle, with the instructions highlighted.
  const instruction = (await field.instructions.getByRole("listitem").first().textContent()) ?? "";
  await page.getByRole("button", { name: "Go to the retake" }).click();
  await expect(field.detail).toHaveAttribute("data-status", "open");
  await expect(field.detail.getByText("Retake 1 of 3")).toBeVisible();
  await expect(field.detail.getByTestId("retake-instructions")).toContainText(instruction);
  await field.backToTasks.click();
  const retake = field.task(place.name);
  await expect(retake.getByTestId("retake-instructions")).toContainText(instruction);
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-tasks-retake.png"), fullPage: true });
});

test("far from any work, the zoomer's own location shows both lists empty, and the tabs work from the keyboard", async ({ page, context }) => {
  await context.grantPermissions(["geolocation"]);
  // Reykjavík: no demo work and no other spec's work within 25 km (dashboard-live-submissions uses Turin).
  await context.setGeolocation({ latitude: 64.1466, longitude: -21.9426 });
  const field = new FieldTasksPage(page);
  await page.goto("/field");
  await field.demoSignIn.click();
  // Permission granted: the page finds the zoomer without a tap.
  await expect(page.getByText("Your location: 64.1466, -21.9426")).toBeVisible();
  await expect(page.getByRole("button", { name: "Use my location" })).toHaveCount(0);

  const missionsTab = page.getByRole("tab", { name: /^Missions/ });
  await expect(missionsTab).toHaveAttribute("aria-selected", "true");
  await missionsTab.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(field.tasksTab).toBeFocused();
  await expect(field.tasksTab).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/[?&]tab=tasks/);
  await expect(page.getByText("No open tasks nearby")).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, "field-tasks-empty.png"), fullPage: true });

  await page.keyboard.press("ArrowRight");
  await expect(missionsTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("No open missions nearby")).toBeVisible();
});

test("a daylight task states the sun's times in Rome time, and is not 'open now' once the sun has set", async ({ page, operator }) => {
  const place = { name: unique("E2E Daylight"), lat: DEMO.lat - 0.0012, lng: DEMO.lng + 0.0015 };
  await confirmedFieldOrder(page.request, await fieldOrderKey(operator), place, "daylight");
  const field = new FieldTasksPage(page);
  await field.openTasksAtDemoLocation();
  const light = field.task(place.name).getByTestId("task-time-of-day");
  await expect(light).toHaveText(/^Daylight: \d\d:\d\d–\d\d:\d\d Rome time, \w{3} \d{1,2} \w{3} · (open now|opens .+)$/);
  // Today's daylight in Florence, from the same sun the photo's check uses.
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Rome" }).format(new Date());
  const sun = sunWindowOn("daylight", today, { ...place, timeZone: "Europe/Rome" });
  const now = Date.now();
  if (sun && now >= sun.start.getTime() && now < sun.end.getTime()) await expect(light).toContainText("open now");
  else await expect(light).not.toContainText("open now");
});

test("without a session the task routes answer 401", async ({ request }) => {
  expect((await request.get("/field/api/assignments?lat=43.77&lng=11.25")).status()).toBe(401);
  expect((await request.post("/field/api/assignments/asg_x/take")).status()).toBe(401);
});
