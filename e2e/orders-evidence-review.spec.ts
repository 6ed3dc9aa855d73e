// The order page's review shows each check's evidence in plain words. An app whose photo analyser
// (ANALYSER_URL, a stand-in here) answers obstruction and minimum_crowd with the detections
// contract (`detections: [{label, score, box: [x, y, w, h]}]` normalised from the top-left, and
// `people_count`); one place's photo is delivered (its boxes drawn on the photo, the people
// counted, the authenticity signs), the other's was sent with the phone 9.3 km from the photo's
// GPS and waits for review: both positions on the map with their distance, the reason in words,
// and the account manager approves it. Screenshots at 1366 and 390 px.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { OrderPage } from "./pages/order-page";
import { SignInPage } from "./pages/sign-in-page";
import { bearer } from "./support/api";
import type { ExtraServer } from "./support/extra-server";
import { expect, test } from "./support/fixtures";
import { Operator, unique } from "./support/operator";
import { ORDERS, json, orderApiKey } from "./support/orders";
import { SCREENSHOT_DIR } from "./support/server";
import { startAppWithStandInAnalyser } from "./support/stand-in-analyser";

let app: ExtraServer;
let stop: () => Promise<void>;

/** What the stand-in analyser saw: a person near the left edge and a van across the lower right. */
const DETECTIONS = [
  { label: "person", score: 0.92, box: [0.08, 0.35, 0.12, 0.5] },
  { label: "person", score: 0.81, box: [0.3, 0.42, 0.08, 0.36] },
  { label: "van", score: 0.88, box: [0.55, 0.55, 0.4, 0.35] },
];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ app, stop } = await startAppWithStandInAnalyser(DETECTIONS, { covered: 0.14, crowdLevel: "low" }));
});

test.afterAll(async () => {
  await stop?.();
});

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
}

test("each check's evidence in words: boxes on the photo, people counted, both positions on the map; a held photo approved", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL: app.origin });
  const operator = new Operator(request, app.adminToken);
  const org = await operator.createOrg("Evidence review");
  const admin = await operator.createUser(org.id, "admin");
  const key = await orderApiKey(operator, org.id);

  const target = { lat: 45.4642, lng: 9.19 };
  const other = { lat: 45.4685, lng: 9.1824 };
  const reference = unique("e2e-evidence");
  const order = await json<{ id: string }>(
    await request.post(`${ORDERS}/orders`, {
      headers: { ...bearer(key), "idempotency-key": unique("create") },
      data: {
        client_reference: reference,
        category: "cultural_exterior",
        requirements: { angles: ["front"], minimum_crowd: "low" },
        locations: [
          { name: "Cathedral square", coordinates: target },
          { name: "Castle gate", coordinates: other },
        ],
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
  const send = async (place: { lat: number; lng: number }, name: string, seed: number, device: { lat: number; lng: number }) => {
    const camera = { lat: place.lat - 30 / 111_320, lng: place.lng };
    const { data: tasks } = await json<{ data: { id: string; location: { name: string } }[] }>(
      await request.get(`/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { headers: bearer(zoomer.token) }),
      200,
    );
    const task = tasks.find((t) => t.location.name === name);
    if (!task) throw new Error(`no task for ${name}`);
    await json(await request.post(`/api/v1/field/assignments/${task.id}/take`, { headers: bearer(zoomer.token) }), 200);
    const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed });
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "IMG.jpg");
    form.append("device_position", `${device.lat},${device.lng},9`);
    await json(await request.post(`/api/v1/field/assignments/${task.id}/photo`, { headers: bearer(zoomer.token), multipart: form }), 202);
    return camera;
  };
  // The cathedral's photo: the phone 12 m from the photo's GPS. The gate's: the phone 9.3 km away.
  const cathedralCamera = await send(target, "Cathedral square", 8801, { lat: target.lat - 42 / 111_320, lng: target.lng });
  await send(other, "Castle gate", 8802, { lat: other.lat - 9330 / 111_320, lng: other.lng });

  const states = async () =>
    (await json<{ data: { status: string }[] }>(await request.get(`${ORDERS}/orders/${order.id}/assignments`, { headers: bearer(key) }), 200)).data
      .map((a) => a.status)
      .sort();
  await expect.poll(states, { timeout: 60_000 }).toEqual(["held_for_review", "verified"]);
  await expect
    .poll(async () => (await json<{ data: unknown[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200)).data.length, {
      timeout: 60_000,
    })
    .toBe(1);
  expect(cathedralCamera.lat).toBeLessThan(target.lat);

  const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await new SignInPage(page).signInAs(admin);
  const orderPage = new OrderPage(page);
  await orderPage.goto(order.id);
  await orderPage.waitForMap();

  // The delivered photo: the model's boxes drawn on it, the people counted, the signs checked.
  const card = page.getByTestId("delivered-photo");
  await expect(card.getByTestId("detection-box")).toHaveCount(3);
  await expect(card.getByTestId("detected-photo")).toContainText("Outlined: 2 people, 1 van");
  await expect(card.getByTestId("people-count")).toHaveText("2 people counted (low)");
  await expect(orderPage.check(card, "authenticity")).toHaveAttribute("data-verdict", "passed");
  await expect(orderPage.check(card, "authenticity")).toContainText("no warning signs");
  await expect(card.getByTestId("authenticity-signals")).toContainText("Phone's position: The phone was 12 m from where the photo's GPS says");
  await expect(card.getByTestId("device-evidence")).toContainText("Phone reported 12 m from where the photo's GPS says");

  // The held photo: why, in words; both positions on the map with their distance.
  const held = page.getByTestId("held-photo");
  await expect(page.getByTestId("held-photos")).toContainText("Waiting for your review");
  await expect(held.locator('[data-signal="device_position"]')).toHaveAttribute("data-verdict", "failed");
  await expect(held).toContainText("The phone reported its position 9.3 km from where the photo's GPS says it was taken");
  await expect(held.getByTestId("phone-position")).toContainText("The phone said it was 9.3 km from where the photo's GPS puts the camera");
  await expect(held.getByTestId("detection-box")).toHaveCount(3);
  await held.getByRole("button", { name: "Show both positions on the map" }).click();
  await expect(page.getByTestId("legend-device")).toHaveText("Phone's own position: 9.3 km from the photo's GPS");
  await expect(orderPage.map).toBeInViewport({ ratio: 0.9 });
  await page.waitForTimeout(1500); // the map's fit animation
  await expect(page.getByText("held_for_review")).toHaveCount(0);
  await shoot(page, "order-evidence-review-1366");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(held).toBeVisible();
  await shoot(page, "order-evidence-review-390");

  // Approved: delivered with its place's set, gone from the review list.
  await held.getByRole("button", { name: /^Approve the/ }).click();
  await expect(page.getByTestId("review-done")).toContainText("Approved");
  await expect
    .poll(async () => (await json<{ data: unknown[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200)).data.length, {
      timeout: 60_000,
    })
    .toBe(2);
  await context.close();
  await request.dispose();
});
