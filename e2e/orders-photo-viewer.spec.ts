// A delivered photo with a crowd on it (issue 33: nine "person 46%" labels piled on each other in
// the 255 px thumbnail, spilling off the photo and over the facts beside it). An app whose photo
// analyser (ANALYSER_URL, a stand-in here) reports a huddle of six people, three more apart and a
// van: at 1366 and 390 px every label is inside the photo, off every other label and off the
// "Enlarge" cue, and the page does not scroll sideways; the photo opens a larger view by keyboard
// (a dialog named by the photo, focus inside), whose switch hides and shows the boxes, and Escape
// closes it and gives focus back to the photo. Screenshots go to SCREENSHOT_DIR.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { OrderPage } from "./pages/order-page";
import { SignInPage } from "./pages/sign-in-page";
import { bearer } from "./support/api";
import type { ExtraServer } from "./support/extra-server";
import { overflow } from "./support/overflow";
import { expect, test } from "./support/fixtures";
import { Operator, unique } from "./support/operator";
import { ORDERS, json, orderApiKey } from "./support/orders";
import { SCREENSHOT_DIR } from "./support/server";
import { startAppWithStandInAnalyser } from "./support/stand-in-analyser";

let app: ExtraServer;
let stop: () => Promise<void>;

const person = (x: number, y: number, score: number) => ({ label: "person", score, box: [x, y, 0.07, 0.3] });
/** A huddle of six overlapping people, three standing apart, and a van across the lower right. */
const DETECTIONS = [
  ...[0.1, 0.15, 0.2, 0.25, 0.3, 0.35].map((x, i) => person(x, 0.3 + (i % 2) * 0.04, 0.4 + i * 0.05)),
  person(0.55, 0.05, 0.46),
  person(0.7, 0.1, 0.52),
  person(0.88, 0.2, 0.61),
  { label: "van", score: 0.88, box: [0.5, 0.6, 0.45, 0.38] },
];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ app, stop } = await startAppWithStandInAnalyser(DETECTIONS, { covered: 0.2, crowdLevel: "moderate" }));
});

test.afterAll(async () => {
  await stop?.();
});

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every label of `photo` inside its overlay (the photo's own box), off the other labels and off `controls`. */
async function expectTidyLabels(photo: Locator, controls: Locator[], what: string) {
  const labels = photo.getByTestId("detection-label");
  await expect(labels.first(), `${what}: labelled`).toBeVisible();
  const boxes = await labels.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as Box));
  const frameInPage = await photo.getByTestId("detection-overlay").evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
  for (const b of boxes) {
    expect(b.x, `${what}: a label spills off the left`).toBeGreaterThanOrEqual(frameInPage.x - 0.5);
    expect(b.y, `${what}: a label spills off the top`).toBeGreaterThanOrEqual(frameInPage.y - 0.5);
    expect(b.x + b.width, `${what}: a label spills off the right`).toBeLessThanOrEqual(frameInPage.x + frameInPage.width + 0.5);
    expect(b.y + b.height, `${what}: a label spills off the bottom`).toBeLessThanOrEqual(frameInPage.y + frameInPage.height + 0.5);
  }
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(overlaps(a, b), `${what}: two labels overlap`).toBe(false)));
  for (const control of controls) {
    const c = await control.evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
    for (const b of boxes) expect(overlaps(b, c), `${what}: a label covers a control`).toBe(false);
  }
}

test("a crowd's boxes: labels inside the photo and off each other; the larger view opens and closes by keyboard", async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL: app.origin });
  const operator = new Operator(request, app.adminToken);
  const org = await operator.createOrg("Photo viewer");
  const admin = await operator.createUser(org.id, "admin");
  const key = await orderApiKey(operator, org.id);

  const target = { lat: 45.4642, lng: 9.19 };
  const order = await json<{ id: string }>(
    await request.post(`${ORDERS}/orders`, {
      headers: { ...bearer(key), "idempotency-key": unique("create") },
      data: {
        client_reference: unique("e2e-viewer"),
        category: "cultural_exterior",
        requirements: { angles: ["front"], minimum_crowd: "low" },
        locations: [{ name: "Cathedral square", coordinates: target }],
      },
    }),
    201,
  );
  await json(
    await request.post(`${ORDERS}/orders/${order.id}/confirm`, {
      headers: { ...bearer(key), "idempotency-key": unique("confirm") },
      data: { payment_method: "card" },
    }),
    200,
  );

  const zoomer = await operator.zoomer();
  const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
  const { data: tasks } = await json<{ data: { id: string }[] }>(
    await request.get(`/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { headers: bearer(zoomer.token) }),
    200,
  );
  const task = tasks[0];
  if (!task) throw new Error("no task near the cathedral");
  await json(await request.post(`/api/v1/field/assignments/${task.id}/take`, { headers: bearer(zoomer.token) }), 200);
  const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 3301 });
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "IMG.jpg");
  await json(await request.post(`/api/v1/field/assignments/${task.id}/photo`, { headers: bearer(zoomer.token), multipart: form }), 202);
  await expect
    .poll(async () => (await json<{ data: unknown[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200)).data.length, {
      timeout: 90_000,
    })
    .toBe(1);

  const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await new SignInPage(page).signInAs(admin);
  const orderPage = new OrderPage(page);
  await orderPage.goto(order.id);
  await orderPage.waitForMap();

  const card = orderPage.photos.first();
  const thumbnail = card.getByTestId("detected-photo");
  const opener = thumbnail.getByRole("button", { name: /opens a larger view/ });
  await expect(thumbnail.getByTestId("detection-box")).toHaveCount(10);
  await expect(thumbnail).toContainText("Outlined: 9 people, 1 van");

  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectTidyLabels(thumbnail, [thumbnail.getByTestId("photo-enlarge")], `the thumbnail at ${width} px`);
    const fit = await overflow(page);
    expect(fit.scrollWidth, `the order page scrolls sideways at ${width} px: ${fit.culprits.join("; ")}`).toBeLessThanOrEqual(width);
    await card.scrollIntoViewIfNeeded();
    await shoot(page, `order-photo-viewer-thumbnail-${width}`);

    // The keyboard opens the larger view: a dialog named by the photo, focus on Close.
    await opener.focus();
    await page.keyboard.press("Enter");
    const viewer = page.getByRole("dialog", { name: /^Front of Cathedral square/ });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByRole("button", { name: "Close" })).toBeFocused();
    await expect(viewer.getByTestId("detection-box")).toHaveCount(10);
    await expectTidyLabels(viewer, [], `the larger view at ${width} px`);
    await expect(viewer.getByRole("link", { name: /Original/ })).toHaveAttribute("href", /\/cdn\//);
    await shoot(page, `order-photo-viewer-open-${width}`);

    // The switch hides the boxes and shows them again, from the keyboard.
    const boxesSwitch = viewer.getByRole("switch", { name: "Show what was detected" });
    await boxesSwitch.focus();
    await page.keyboard.press("Space");
    await expect(boxesSwitch).not.toBeChecked();
    await expect(viewer.getByTestId("detection-box")).toHaveCount(0);
    await page.keyboard.press("Space");
    await expect(viewer.getByTestId("detection-box")).toHaveCount(10);

    // Focus stays in the dialog (the page behind is inert), Escape closes it and focus returns to the photo.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      const inside = await viewer.evaluate((dialog) => dialog.contains(document.activeElement) || document.activeElement === document.body);
      expect(inside, "focus left the larger view").toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(opener).toBeFocused();
  }
  await context.close();
  await request.dispose();
});
