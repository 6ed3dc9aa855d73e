// Review of delivered photos on the order page. The order is made the way a partner's systems and
// the field make it — created and confirmed with the organisation's API key, a zoomer takes the
// task near the place and uploads a photo taken 30 m south of it facing north — then a signed-in
// administrator sees the locations by state, the photo with every check (not-evaluated ones never
// shown as passed), its camera on the map, and sends it back for a retake.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { OrderPage } from "./pages/order-page";
import { bearer } from "./support/api";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

const ORDERS = "/api/orders/v1";

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
}

async function json<T>(res: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

interface Task {
  id: string;
  angle: string;
  attempt: number;
  status: string;
  location: { name: string };
}

test("an order with a delivered photo: locations by state, the photo's checks and camera, and a retake request", async ({ page, request, operator, partner, signIn }) => {
  test.setTimeout(150_000);
  // The organisation's order-interface key, as its own systems use it.
  const { api_key: key } = await json<{ api_key: string }>(
    await request.post(`/api/admin/v1/orgs/${partner.org.id}/api-keys`, { headers: bearer(operator.adminToken), data: { name: "e2e orders" } }),
    201,
  );
  const target = { lat: 44.4939 + Math.random() * 0.01, lng: 11.3426 + Math.random() * 0.01 };
  const name = unique("Fountain");
  const reference = unique("e2e-review");
  const order = await json<{ id: string }>(
    await request.post(`${ORDERS}/orders`, {
      headers: { ...bearer(key), "idempotency-key": unique("create") },
      data: {
        client_reference: reference,
        category: "cultural_exterior",
        requirements: { angles: ["front"] },
        locations: [
          { name, coordinates: target },
          { name: `${name} (annex)`, coordinates: { lat: target.lat + 0.004, lng: target.lng + 0.004 } },
        ],
      },
    }),
    201,
  );
  const confirmed = await json<{ status: string }>(
    await request.post(`${ORDERS}/orders/${order.id}/confirm`, { headers: { ...bearer(key), "idempotency-key": unique("confirm") }, data: { payment_method: "card" } }),
    200,
  );
  expect(confirmed.status).toBe("in_progress");

  // A zoomer 30 m south of the target takes the task and sends a photo facing north.
  const zoomer = await operator.zoomer();
  const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
  const { data: tasks } = await json<{ data: Task[] }>(await request.get(`/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { headers: bearer(zoomer.token) }), 200);
  const task = tasks.find((t) => t.location.name === name);
  if (!task) throw new Error(`no task for ${name} among ${tasks.map((t) => t.location.name).join(", ")}`);
  await json(await request.post(`/api/v1/field/assignments/${task.id}/take`, { headers: bearer(zoomer.token) }), 200);
  const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 7100 + Math.floor(Math.random() * 1000) });
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "IMG_7100.jpg");
  await json(await request.post(`/api/v1/field/assignments/${task.id}/photo`, { headers: bearer(zoomer.token), multipart: form }), 202);

  // QA, verification, delivery.
  let photoId = "";
  await expect
    .poll(
      async () => {
        const { data } = await json<{ data: { photo_id: string }[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200);
        photoId = data[0]?.photo_id ?? "";
        return data.length;
      },
      { timeout: 60_000, message: "the photo is verified and delivered" },
    )
    .toBe(1);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn.signInAs(partner.admin);
  const orderPage = new OrderPage(page);
  await orderPage.goto(order.id);
  await expect(orderPage.heading).toHaveText(reference);
  await orderPage.waitForMap();
  await expect(orderPage.location(`${name} (annex)`)).toHaveAttribute("data-state", "in_progress");
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
  // No time of day was ordered, and no analyser is configured: not evaluated, never "passed".
  for (const check of ["time_of_day", "obstruction"]) {
    await expect(orderPage.check(card, check)).toHaveAttribute("data-verdict", "not_evaluated");
    await expect(orderPage.check(card, check)).toContainText("Not evaluated");
    await expect(orderPage.check(card, check)).not.toContainText("Passed");
  }
  await expect(card.getByRole("img")).toHaveJSProperty("complete", true);

  await card.getByRole("button", { name: "Show camera on the map" }).click();
  await expect(card.getByRole("button", { name: "Shown on the map" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("region", { name: "Map legend" }).getByText("Camera, and the way it faced").waitFor();
  await page.waitForTimeout(1200); // the camera eases to the photo
  await shoot(page, "orders-review-photo");
  await page.mouse.move(1, 1);
  await expectNoSeriousViolations(page);

  // Send it back with a reason.
  await card.getByRole("button", { name: /Request a retake/ }).click();
  await card.getByLabel("What should the photographer do differently?").fill("A delivery van hides the entrance; wait until the street is clear.");
  await card.getByRole("button", { name: "Send back for a retake" }).click();
  // Confirmed in place, then the page re-reads the order: the photo is marked as sent back.
  await expect(card.getByTestId("retake-requested").or(card.getByTestId("retake-pending"))).toBeVisible();
  await expect(card.getByTestId("retake-pending")).toBeVisible();
  await expect(card).toContainText("Sent back for a retake");
  await expect(orderPage.locations.filter({ hasText: new RegExp(`^${name}In progress`) })).toHaveAttribute("data-state", "in_progress");
  await expect(orderPage.timeline).toContainText(`Retake opened: ${name}, front`);
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
