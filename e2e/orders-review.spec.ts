// Review of delivered photos on the order page. The order is made the way a partner's systems and
// the field make it — created and confirmed with the organisation's API key, a zoomer takes the
// task near the place and uploads a photo taken 30 m south of it facing north — then a signed-in
// administrator sees the locations by state, the photo with every check (not-evaluated ones never
// shown as passed), its camera on the map, the ZIPs of a location and of the order, and sends it
// back for a retake. Then an order the demo simulator fulfils: its delivery waited for, reviewed
// (checks, map, EXIF) and sent back with a reason — which a viewer can neither see nor force.
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { ONE_OFF_REFERENCE, DAILY_REFERENCE } from "@/lib/demo/demo-orders";
import { OrderPage } from "./pages/order-page";
import { SignInPage } from "./pages/sign-in-page";
import { bearer } from "./support/api";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { ORDERS, demoOrgId, json, orderApiKey, orderWithDeliveredPhoto } from "./support/orders";
import { SCREENSHOT_DIR } from "./support/server";
import { readZip } from "./support/zip";

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
}

test("an order with a delivered photo: locations by state, the photo's checks and camera, and a retake request", async ({
  page,
  request,
  operator,
  partner,
  signIn,
}) => {
  test.setTimeout(150_000);
  // The organisation's order-interface key, as its own systems use it; the order made and a photo
  // delivered through the field API.
  const key = await orderApiKey(operator, partner.org.id);
  const { orderId, photoId, name, reference } = await orderWithDeliveredPhoto(request, operator, key);
  const order = { id: orderId };

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn.signInAs(partner.admin);
  const orderPage = new OrderPage(page);
  await orderPage.goto(order.id);
  await expect(orderPage.heading).toHaveText(reference);
  await orderPage.waitForMap();
  // Nobody has taken the annex's task yet: waiting. The legend names all six states with counts.
  await expect(orderPage.location(`${name} (annex)`)).toHaveAttribute("data-state", "waiting");
  await expect(orderPage.location(`${name} (annex)`)).toContainText("Waiting");
  const legend = page.getByRole("region", { name: "Map legend" });
  await expect(legend.locator("[data-legend-state]")).toHaveText([
    /^Waiting1$/,
    /^Assigned0$/,
    /^Verifying0$/,
    /^Waiting for your review0$/,
    /^Retake0$/,
    /^Delivered1$/,
    /^Given up0$/,
  ]);
  await expect(orderPage.locations.filter({ hasText: new RegExp(`^${name}Delivered`) })).toHaveAttribute("data-state", "delivered");
  await expect(page.getByTestId("delivered-count")).toHaveText("1 of 2");
  await expect(orderPage.timeline).toContainText(`Delivered: ${name}`);

  const card = orderPage.photo(photoId);
  await expect(card).toBeVisible();
  await expect(card.getByTestId("camera-position")).toHaveText("30 m south of the target");
  await expect(card).toContainText("0° (north)");
  await expect(orderPage.check(card, "location_match")).toHaveAttribute("data-verdict", "passed");
  await expect(orderPage.check(card, "location_match")).toContainText(/30(\.\d)? m away/);
  await expect(orderPage.check(card, "angle_match")).toHaveAttribute("data-verdict", "passed");
  await expect(orderPage.check(card, "quality")).toHaveAttribute("data-verdict", "passed");
  // The local vision model judged the view; nothing stands in front of the target.
  await expect(orderPage.check(card, "obstruction")).toHaveAttribute("data-verdict", "passed");
  await expect(orderPage.check(card, "obstruction")).toContainText("Nothing blocks");
  // No time of day was ordered: not evaluated, never "passed".
  for (const check of ["time_of_day"]) {
    await expect(orderPage.check(card, check)).toHaveAttribute("data-verdict", "not_evaluated");
    await expect(orderPage.check(card, check)).toContainText("Not evaluated");
    await expect(orderPage.check(card, check)).not.toContainText("Passed");
    // Words for the reader, not the operator's configuration hint.
    await expect(orderPage.check(card, check)).toContainText("Not checked for this order.");
  }
  await expect(card).not.toContainText("ANALYSER_URL");
  // No weather service in the e2e app (WEATHER_URL=off): said plainly, without the service's error.
  await expect(card).toContainText("Weather unavailable");
  // The charge names the card, not the processor's method id.
  await expect(orderPage.timeline).toContainText("Visa test card ···· 4242");
  await expect(orderPage.timeline).not.toContainText("pm_card");
  await expect(card.getByRole("img")).toHaveJSProperty("complete", true);

  // The button sits below the map, out of its sight: pressing it brings the map into view.
  const showCamera = card.getByRole("button", { name: "Show camera on the map" });
  await showCamera.scrollIntoViewIfNeeded();
  await expect(orderPage.map).not.toBeInViewport({ ratio: 0.9 });
  await showCamera.click();
  await expect(card.getByRole("button", { name: "Shown on the map" })).toHaveAttribute("aria-pressed", "true");
  await expect(orderPage.map).toBeInViewport({ ratio: 0.9 });
  await page.getByRole("region", { name: "Map legend" }).getByText("Camera (the photo's GPS), and the way it faced").waitFor();
  await page.waitForTimeout(1200); // the camera eases to the photo
  await shoot(page, "orders-review-photo");
  await page.mouse.move(1, 1);
  await expectNoSeriousViolations(page);

  // The location's photos and the whole order's as ZIPs, streamed through the dashboard.
  const locationZip = page.waitForEvent("download");
  await page.getByRole("button", { name: `Download the photos of ${name} as a ZIP` }).click();
  const oneLocation = await locationZip;
  expect(oneLocation.suggestedFilename()).toMatch(new RegExp(`^${order.id}-loc_[A-Za-z0-9_-]+\\.zip$`));
  const locationEntries = readZip(await readFile(await oneLocation.path()));
  // The photo, its signed evidence and the keys that verify it, and the metadata.
  expect([...locationEntries.keys()].sort()).toEqual([
    `evidence/${photoId}.jws`,
    "evidence/jwks.json",
    "metadata.json",
    expect.stringMatching(new RegExp(`^photos/loc_[A-Za-z0-9_-]+/cycle-001-front-${photoId}\\.jpg$`)),
  ]);
  expect(JSON.parse(locationEntries.get("metadata.json")?.toString("utf8") ?? "{}")).toMatchObject({
    order: { id: order.id, client_reference: reference },
    photos: [{ photo_id: photoId }],
  });
  const orderZip = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download all photos (ZIP)" }).click();
  const wholeOrder = await orderZip;
  expect(wholeOrder.suggestedFilename()).toBe(`${order.id}.zip`);
  expect([...readZip(await readFile(await wholeOrder.path())).keys()].filter((e) => e.endsWith(".jpg"))).toHaveLength(1);

  // Send it back with a reason.
  await card.getByRole("button", { name: /Request a retake/ }).click();
  await card.getByLabel("What should the photographer do differently?").fill("A delivery van hides the entrance; wait until the street is clear.");
  await card.getByRole("button", { name: "Send back for a retake" }).click();
  // Confirmed in place, then the page re-reads the order: the photo is marked as sent back.
  await expect(card.getByTestId("retake-requested").or(card.getByTestId("retake-pending"))).toBeVisible();
  await expect(card.getByTestId("retake-pending")).toBeVisible();
  await expect(card).toContainText("Sent back for a retake");
  await expect(orderPage.locations.filter({ hasText: new RegExp(`^${name}Retake`) })).toHaveAttribute("data-state", "retake");
  await expect(legend.locator('[data-legend-state="retake"]')).toHaveText(/^Retake1$/);
  await expect(orderPage.timeline).toContainText(`Retake opened: ${name}, Front`);
  await shoot(page, "orders-review-retake");

  // The order interface has the new task, with the reason as its instruction.
  const { data: assignments } = await json<{ data: { attempt: number; status: string; instructions: string[]; photo_id: string | null }[] }>(
    await request.get(`${ORDERS}/orders/${order.id}/assignments`, { headers: bearer(key) }),
    200,
  );
  const retake = assignments.find((a) => a.attempt === 1);
  expect(retake?.status).toBe("open");
  expect(retake?.instructions.join(" ")).toContain("A delivery van hides the entrance");
});

/**
 * What a new visitor does: the demo account signs in, which nudges the demo's simulator into a
 * short burst of work. A fresh context each time: one already signed in is sent on from /sign-in.
 */
async function nudgeDemo(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.demoButton.click();
    await expect(page).toHaveURL(/\/missions(\?.*)?$/);
  } finally {
    await context.close();
  }
}

interface DeliveredRecord {
  photo_id: string;
  location_id: string;
  metadata: { device?: string | null };
}

test("the demo simulator delivers the demo partner's order: its photo reviewed with checks, map and EXIF, sent back with a reason; a viewer may not", async ({
  page,
  browser,
  request,
  operator,
  signIn,
}) => {
  test.setTimeout(540_000);
  const orgId = await demoOrgId(operator);
  const key = await orderApiKey(operator, orgId);
  const demoOrders = async () =>
    (
      await Promise.all(
        [ONE_OFF_REFERENCE, DAILY_REFERENCE].map(
          async (reference) =>
            (
              await json<{ data: { id: string; client_reference: string }[] }>(
                await request.get(`${ORDERS}/orders?client_reference=${reference}`, { headers: bearer(key) }),
                200,
              )
            ).data,
        ),
      )
    ).flat();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn.goto();
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);

  // Wait for the simulator's zoomer to have a location of a demo order verified and delivered;
  // signing the demo account in again each minute keeps it busy, as visitors do.
  const origin = new URL(page.url()).origin;
  let delivered: { orderId: string; reference: string; photo: DeliveredRecord } | null = null;
  let lastNudge = Date.now();
  await expect
    .poll(
      async () => {
        for (const order of await demoOrders()) {
          const { data } = await json<{ data: DeliveredRecord[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200);
          const photo = data[0];
          if (photo) {
            delivered = { orderId: order.id, reference: order.client_reference, photo };
            return true;
          }
        }
        if (Date.now() - lastNudge > 65_000) {
          lastNudge = Date.now();
          await nudgeDemo(browser, origin);
        }
        return false;
      },
      { timeout: 480_000, intervals: [5_000], message: "the demo simulator delivers a photo of a demo order" },
    )
    .toBe(true);
  const found = delivered as { orderId: string; reference: string; photo: DeliveredRecord } | null;
  if (!found) throw new Error("no delivery");
  const { orderId, photo } = found;

  const orderPage = new OrderPage(page);
  await orderPage.goto(orderId);
  await expect(orderPage.heading).toHaveText(found.reference);
  await orderPage.waitForMap();
  const card = orderPage.photo(photo.photo_id);
  await expect(card).toBeVisible();
  // Verification evidence: every check the simulator's photo had to pass, with its measured value.
  for (const check of ["location_match", "quality"]) await expect(orderPage.check(card, check)).toHaveAttribute("data-verdict", "passed");
  await expect(orderPage.check(card, "location_match")).toContainText(/\d+(\.\d)? m away/);
  await expect(orderPage.check(card, "obstruction")).toHaveAttribute("data-verdict", "passed");
  // EXIF: when, where the camera stood, which way it faced, the phone.
  await expect(card.getByTestId("camera-position")).toHaveText(/^\d+ m [a-z-]+ of the target$/);
  await expect(card).toContainText(/\d+° \([a-z-]+\)/);
  await expect(card.getByTestId("photo-device")).toHaveText(photo.metadata.device ?? "not recorded");
  await expect(card.getByRole("img")).toHaveJSProperty("complete", true);
  // The camera and its direction on the map.
  await card.getByRole("button", { name: "Show camera on the map" }).click();
  await expect(card.getByRole("button", { name: "Shown on the map" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("region", { name: "Map legend" }).getByText("Camera (the photo's GPS), and the way it faced").waitFor();
  await page.waitForTimeout(1200);
  await shoot(page, "orders-review-demo-photo");
  await page.mouse.move(1, 1);
  await expectNoSeriousViolations(page);
  // The same review at tablet width.
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.waitForTimeout(600);
  await shoot(page, "orders-review-demo-photo-tablet");
  await expectNoSeriousViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Send it back; the action call is recorded on its way (to replay it as a viewer below).
  const reason = `The façade is in shadow; come back in the afternoon (${Date.now().toString(36)}).`;
  const captured = new Promise<{ headers: Record<string, string>; body: string }>((resolve) => {
    void page.route(`**/orders/${orderId}`, async (route) => {
      const call = route.request();
      const headers = await call.allHeaders();
      if (call.method() === "POST" && headers["next-action"]) resolve({ headers, body: call.postData() ?? "" });
      await route.continue();
    });
  });
  await card.getByRole("button", { name: /Request a retake/ }).click();
  await card.getByLabel("What should the photographer do differently?").fill(reason);
  await card.getByRole("button", { name: "Send back for a retake" }).click();
  await expect(card.getByTestId("retake-pending")).toBeVisible();
  const call = await captured;
  expect(call.body).toContain(reason);
  const instructionsOf = async () =>
    (
      await json<{ data: { location_id: string; instructions: string[] }[] }>(
        await request.get(`${ORDERS}/orders/${orderId}/assignments?per_page=100`, { headers: bearer(key) }),
        200,
      )
    ).data
      .filter((a) => a.location_id === photo.location_id)
      .flatMap((a) => a.instructions);
  // The API recorded it: a new task for that location with the reason as its instruction.
  expect((await instructionsOf()).filter((i) => i.includes(reason))).toHaveLength(1);

  // A viewer of the same organisation sees the photo but no retake, and the server refuses the
  // very same action call made with the viewer's session.
  const viewer = await operator.createUser(orgId, "viewer");
  const viewerContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const viewerPage = await viewerContext.newPage();
  await new SignInPage(viewerPage).signInAs(viewer);
  await new OrderPage(viewerPage).goto(orderId);
  await expect(new OrderPage(viewerPage).photo(photo.photo_id)).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: /Request a retake/ })).toHaveCount(0);
  const replayHeaders = Object.fromEntries(
    Object.entries(call.headers).filter(([h]) => ["accept", "content-type", "next-action", "next-router-state-tree", "origin"].includes(h)),
  );
  const viewerReason = `${reason} (forced by a viewer)`;
  const forced = await viewerPage.request.post(`/orders/${orderId}`, { headers: replayHeaders, data: call.body.replace(reason, viewerReason) });
  const answer = await forced.text();
  expect(answer).toContain("forbidden");
  expect(answer).toContain("This needs the Editor role in");
  expect((await instructionsOf()).filter((i) => i.includes(viewerReason))).toEqual([]);
  await viewerContext.close();
});
