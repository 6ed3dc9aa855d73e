// The order wizard end to end, as the demo user: two locations clicked on the map and one pasted
// as CSV, angles chosen, back and a refresh (the server-saved draft survives), the quote, and a
// double click on "Place order and pay" that makes exactly one order, in progress. Then an error
// of the order interface (an unsafe webhook URL) shown at the step and field it concerns.
// Screenshots of every step go to SCREENSHOT_DIR. The demo organisation may hold other orders:
// each test finds its own by a reference of its own.
import { mkdirSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { OrderPage } from "./pages/order-page";
import { OrderWizardPage } from "./pages/order-wizard-page";
import { OrdersListPage } from "./pages/orders-list-page";
import { formatMoney } from "@/components/orders/order-progress";
import { apiRequestCounts, bearer } from "./support/api";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/operator";
import { ORDERS, demoOrgId, json, orderApiKey } from "./support/orders";
import { SCREENSHOT_DIR } from "./support/server";

/** A full-page picture for people to look at, then axe on the same state (no serious violations). */
async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
  await expectNoSeriousViolations(page);
}

/** The same state at tablet width (820×1180) and at desktop, then axe on it. */
async function shootBoth(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.waitForTimeout(400); // the map and the layout settle
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-tablet.png`), caret: "hide", animations: "disabled", fullPage: true });
  await expectNoSeriousViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(400);
  await shoot(page, name);
}

test.beforeEach(async ({ page, signIn }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn.goto();
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);
});

test("place an order through the wizard: map clicks, a CSV, angles, back and refresh, the quote, one order from a double click", async ({ page, request }) => {
  test.setTimeout(180_000);
  const wizard = new OrderWizardPage(page);
  const reference = unique("e2e-wizard");

  await wizard.startNew();
  const draftId = wizard.draftId();
  await wizard.waitForMap();
  await expect(wizard.locationsCount).toContainText("0 of 500");

  // Two locations by clicking the map, one from a pasted CSV.
  const view = await wizard.emptyDraftView();
  await wizard.clickMap({ x: -140, y: -70 });
  await expect(wizard.locationRows).toHaveCount(1);
  await wizard.clickMap({ x: 150, y: 80 });
  await expect(wizard.locationRows).toHaveCount(2);
  // Drag the second point 60 px down: it moves south by what 60 px is worth at this zoom.
  const latOf2 = wizard.row(1).getByRole("textbox", { name: "Latitude of location 2" });
  const before = Number(await latOf2.inputValue());
  await wizard.dragOnMap({ x: 150, y: 80 }, { x: 150, y: 140 });
  const moved = view.toLngLat({ x: 150, y: 140 })[1];
  await expect.poll(async () => Math.abs(Number(await latOf2.inputValue()) - moved)).toBeLessThan(0.0003);
  expect(Number(await latOf2.inputValue())).toBeLessThan(before);
  // The first click landed where the map says it did (to 6 decimals, within a pixel or so).
  const [lng, lat] = view.toLngLat({ x: -140, y: -70 });
  const firstLat = Number(await wizard.row(0).getByRole("textbox", { name: "Latitude of location 1" }).inputValue());
  const firstLng = Number(await wizard.row(0).getByRole("textbox", { name: "Longitude of location 1" }).inputValue());
  expect(Math.abs(firstLat - lat)).toBeLessThan(0.0003);
  expect(Math.abs(firstLng - lng)).toBeLessThan(0.0003);
  await wizard.row(0).getByRole("textbox", { name: "Name of location 1" }).fill("Loggia dei Lanzi");

  await wizard.pasteLocations("name,lat,lng\nPonte Vecchio,43.768,11.2531\nNowhere,95,11");
  await expect(wizard.importReport).toContainText("Imported 1 location from the CSV.");
  await expect(wizard.importReport).toContainText("Line 3: latitude 95 is outside -90 to 90");
  await expect(wizard.locationRows).toHaveCount(3);
  await expect(wizard.locationsCount).toContainText("3 of 500");
  await wizard.waitForSaved();
  await shoot(page, "orders-wizard-1-locations");

  // What: the category and two angles for every location.
  await wizard.goNext("what");
  await wizard.category("Cultural site, outside").check();
  await wizard.angle("Front").check();
  await wizard.angle("Overview").check();
  await wizard.reference.fill(reference);
  await wizard.waitForSaved();
  await shoot(page, "orders-wizard-2-what");

  // When: a look at a recurring schedule in words, then back to once.
  await wizard.goNext("when");
  await wizard.recurring("Recurring").check();
  await expect(page.getByTestId("schedule-summary")).toContainText(/Every Friday/, { timeout: 20_000 });
  await shoot(page, "orders-wizard-3-when");
  await wizard.recurring("Once").check();
  await expect(page.getByTestId("schedule-summary")).toContainText("Once, as soon as possible.", { timeout: 20_000 });
  await wizard.waitForSaved();

  // Back, and a refresh: the draft on the server still has everything.
  await wizard.back.click();
  await wizard.expectStep("what");
  await page.reload();
  await wizard.expectStep("what");
  expect(wizard.draftId()).toBe(draftId);
  await expect(wizard.angle("Front")).toBeChecked();
  await expect(wizard.angle("Overview")).toBeChecked();
  await expect(wizard.angle("Entrance")).not.toBeChecked();
  await expect(wizard.reference).toHaveValue(reference);
  await wizard.stepLink("Locations").click();
  await wizard.expectStep("locations");
  await expect(wizard.locationRows).toHaveCount(3);
  await expect(wizard.row(0).getByRole("textbox", { name: "Name of location 1" })).toHaveValue("Loggia dei Lanzi");

  await wizard.goNext("what");
  await wizard.goNext("when");
  await expect(wizard.recurring("Once")).toBeChecked();
  await wizard.goNext("delivery");
  await expect(wizard.dashboardOnly).toBeChecked();
  await shoot(page, "orders-wizard-4-delivery");

  // Review: the order interface's quote — a line per location, 6 photos.
  await wizard.goNext("review");
  await expect(wizard.quote.getByRole("row")).toHaveCount(1 + 3 + 2); // header, 3 locations, subtotal and total
  await expect(wizard.quote).toContainText("Subtotal (6 photos)");
  await expect(page.getByTestId("quota")).toContainText("photos left this month");
  await expect(wizard.placeOrder).toBeEnabled();
  const total = (await wizard.quoteTotal.textContent()) ?? "";
  await expect(wizard.placeOrder).toHaveText(`Place order and pay ${total}`);
  await shoot(page, "orders-wizard-5-review");

  // A double click places one order, paid and in progress, in one request of the page to the
  // server and one to the order interface (it was six: draft read and save, create, order read,
  // confirm). The demo simulator orders through the API meanwhile, so only draft routes are counted.
  const actionPosts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.headers()["next-action"]) actionPosts.push(r.url());
  });
  const countsBefore = await apiRequestCounts(request);
  await wizard.placeOrder.dblclick();
  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?placed=1$/, { timeout: 30_000 });
  const countsAfter = await apiRequestCounts(request);
  const made = (route: string) => (countsAfter.get(route) ?? 0) - (countsBefore.get(route) ?? 0);
  expect(actionPosts).toHaveLength(1);
  expect(made("POST /api/orders/v1/drafts/:id/place")).toBe(1);
  expect(made("GET /api/orders/v1/drafts/:id")).toBe(0);
  expect(made("PUT /api/orders/v1/drafts/:id")).toBe(0);
  const orderPage = new OrderPage(page);
  const orderId = orderPage.orderId();
  await expect(orderPage.heading).toHaveText(reference);
  await expect(orderPage.status).toHaveAttribute("data-status", "in_progress");
  await expect(orderPage.placed).toContainText(`${total} charged`);
  await expect(orderPage.locations).toHaveCount(3);
  await orderPage.waitForMap();
  await shoot(page, "orders-page-placed");

  const list = new OrdersListPage(page);
  await list.goto();
  await list.findByReference(reference);
  await expect(list.rows).toHaveCount(1);
  await expect(list.rows.first()).toHaveAttribute("data-order-id", orderId);
  await expect(list.rows.first().locator("[data-status]")).toHaveAttribute("data-status", "in_progress");
  await shoot(page, "orders-list");

  // The placed draft now leads to its order, wherever it is opened from.
  await page.goto(`/orders/new/review?draft=${draftId}`);
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
});

test("an error of the order interface is shown at its step and field: an unsafe webhook URL", async ({ page }) => {
  test.setTimeout(120_000);
  const wizard = new OrderWizardPage(page);
  await wizard.startNew();
  await wizard.pasteLocations("name,lat,lng\nPalazzo Vecchio,43.7693,11.2556");
  await expect(wizard.locationRows).toHaveCount(1);
  await wizard.goNext("what");
  await wizard.category("Cultural site, outside").check();
  await wizard.angle("Front").check();
  await wizard.reference.fill(unique("e2e-unsafe-url"));
  await wizard.goNext("when");
  await wizard.goNext("delivery");
  await wizard.webhookOption.check();
  await wizard.webhookUrl.fill("http://127.0.0.1:9/hooks/photos");
  await wizard.goNext("review");
  // The quote checks the URL as placing would (issue 22): the review says so before anything is
  // placed, and nothing can be paid until it is fixed.
  await expect(wizard.quote).toHaveCount(0);
  await expect(wizard.placeOrder).toBeDisabled();
  await expect(wizard.problems).toContainText("Delivery:");
  await expect(wizard.problems).toContainText("Webhook URL —");
  await expect(wizard.stepLink("Delivery")).toContainText("1 problem");
  await shoot(page, "orders-wizard-error-review");

  await wizard.problems.getByRole("link", { name: "Fix in Delivery" }).click();
  await wizard.expectStep("delivery");
  await expect(wizard.webhookUrl).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: "Port 9 is not allowed" }).first()).toBeVisible();
  await shoot(page, "orders-wizard-error-delivery");

  // Fixing the field clears its error.
  await wizard.dashboardOnly.check();
  await expect(wizard.webhookUrl).toHaveCount(0);
  await expect(wizard.stepLink("Delivery")).not.toContainText("problem");
});

test("the delivery step's test button: a signed test event reaches a real receiver and its answer is shown beside the field", async ({ page }) => {
  test.setTimeout(120_000);
  // A receiver on loopback (the browser tests' app allows private targets): answers 204, then 401.
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const replies = [204, 401];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(replies.shift() ?? 500, { "content-type": "text/plain" });
      res.end(received.length === 2 ? "signature mismatch" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/photos`;
    const wizard = new OrderWizardPage(page);
    await wizard.startNew();
    await wizard.pasteLocations("name,lat,lng\nLoggia dei Lanzi,43.7695,11.2557");
    await expect(wizard.locationRows).toHaveCount(1);
    await wizard.goNext("what");
    await wizard.category("Cultural site, outside").check();
    await wizard.angle("Front").check();
    await wizard.goNext("when");
    await wizard.goNext("delivery");
    await wizard.webhookOption.check();
    // The test is signed like deliveries: the organisation needs its signing secret first.
    if (await wizard.createSecret.isVisible()) {
      await expect(wizard.sendTest).toBeDisabled();
      await wizard.createSecret.click();
      await page.getByRole("button", { name: "Done, I have stored it" }).click();
    }
    await wizard.webhookUrl.fill(url);
    await wizard.sendTest.click();
    await expect(wizard.testResult).toHaveAttribute("data-tone", "ok");
    await expect(wizard.testResult).toHaveText(/^Your endpoint answered 204 in \d+ ms\.$/);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]?.body ?? "{}")).toMatchObject({ type: "order.delivery.test" });
    expect(received[0]?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+/);
    expect(received[0]?.headers["x-svc-signature"]).toMatch(/^[0-9a-f]{64}$/);
    await shoot(page, "orders-wizard-delivery-test-ok");

    await wizard.sendTest.click();
    await expect(wizard.testResult).toHaveAttribute("data-tone", "warn");
    await expect(wizard.testResult).toContainText("Your endpoint answered 401: “signature mismatch”");

    // A URL the guard refuses: the API's reason, beside the field; nothing is sent.
    await wizard.webhookUrl.fill("http://127.0.0.1:9/hooks/photos");
    await expect(wizard.testResult).not.toHaveAttribute("data-tone");
    await wizard.sendTest.click();
    await expect(wizard.testResult).toHaveAttribute("data-tone", "error");
    await expect(wizard.testResult).toContainText("Port 9 is not allowed");
    expect(received).toHaveLength(2);
    await shoot(page, "orders-wizard-delivery-test-refused");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test("two tabs on one draft: the stale tab is told and catches up, nothing is overwritten", async ({ page, context }) => {
  const wizard = new OrderWizardPage(page);
  await wizard.startNew();
  await wizard.pasteLocations("name,lat,lng\nBargello,43.7702,11.2582");
  await expect(wizard.locationRows).toHaveCount(1);
  await wizard.goNext("what");

  const other = await context.newPage();
  await other.goto(page.url());
  const second = new OrderWizardPage(other);
  await second.reference.fill("saved-in-the-second-tab");
  await second.waitForSaved();

  await wizard.reference.fill("typed-in-the-first-tab");
  await expect(page.getByRole("alert").filter({ hasText: "changed in another tab" })).toBeVisible();
  await page.getByRole("button", { name: "Load the latest version" }).click();
  await expect(wizard.reference).toHaveValue("saved-in-the-second-tab");
  await expect(wizard.saveStatus).toHaveText("Draft saved");
});

interface ApiQuote {
  currency: string;
  total_cents: number;
  subtotal_cents: number;
  photos_per_cycle: number;
  discount: { percent: number; amount_cents: number } | null;
  schedule: string | null;
}

test("a recurring weekly order through the wizard: map clicks, a CSV with a bad row, angles, every Friday, the API's own price, paid, its next cycles", async ({
  page,
  request,
  operator,
}) => {
  test.setTimeout(240_000);
  const wizard = new OrderWizardPage(page);
  const reference = unique("e2e-weekly");

  await wizard.startNew();
  await wizard.waitForMap();
  await wizard.clickMap({ x: -120, y: -60 });
  await expect(wizard.locationRows).toHaveCount(1);
  await wizard.clickMap({ x: 130, y: 70 });
  await expect(wizard.locationRows).toHaveCount(2);
  await wizard.row(0).getByRole("textbox", { name: "Name of location 1" }).fill("Piazza della Signoria");
  await wizard.row(1).getByRole("textbox", { name: "Name of location 2" }).fill("Orsanmichele");
  // A CSV with one good row and one the importer refuses, with the line and the reason.
  await wizard.pasteLocations("name,lat,lng\nPalazzo Pitti,43.7652,11.2500\nNowhere,95,11");
  await expect(wizard.importReport).toContainText("Imported 1 location from the CSV.");
  await expect(wizard.importReport).toContainText("Line 3: latitude 95 is outside -90 to 90");
  await expect(wizard.locationRows).toHaveCount(3);
  await wizard.waitForSaved();
  await shootBoth(page, "orders-weekly-1-locations");

  await wizard.goNext("what");
  await wizard.category("Cultural site, outside").check();
  await wizard.angle("Front").check();
  await wizard.angle("Entrance").check();
  await wizard.reference.fill(reference);
  await wizard.waitForSaved();
  await shootBoth(page, "orders-weekly-2-what");

  // When: weekly, on Fridays — said back in plain words, with the weekly discount.
  await wizard.goNext("when");
  await wizard.recurring("Recurring").check();
  await page.getByLabel("Frequency").selectOption("weekly");
  await page.getByLabel("Day of the week").selectOption({ label: "Friday" });
  await expect(page.getByTestId("schedule-summary")).toContainText("Every Friday", { timeout: 20_000 });
  await expect(page.getByTestId("schedule-summary")).toContainText("per cycle, 15 % off");
  // The next cycles, from the API's schedule: four Fridays, a week apart.
  const nextCycles = page.getByTestId("next-cycles").locator("time");
  await expect(nextCycles).toHaveCount(4);
  const previewDates = await nextCycles.evaluateAll((times) => times.map((t) => t.getAttribute("datetime") ?? ""));
  for (const [i, date] of previewDates.entries()) {
    expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(5);
    if (i > 0) expect(Date.parse(date) - Date.parse(previewDates[i - 1] ?? "")).toBe(7 * 86_400_000);
  }
  await wizard.waitForSaved();
  await shootBoth(page, "orders-weekly-3-when");

  await wizard.goNext("delivery");
  await expect(wizard.dashboardOnly).toBeChecked();
  await shootBoth(page, "orders-weekly-4-delivery");

  // Review: the price shown is the order interface's own quote for the same order, asked for
  // here with the organisation's API key (names and coordinates as the map and the CSV gave them).
  await wizard.goNext("review");
  await expect(wizard.quote).toBeVisible();
  // The review names the day the first cycle falls on, as the When step listed it.
  await expect(page.getByTestId("first-cycle").locator("time")).toHaveAttribute("datetime", previewDates[0] ?? "");
  const locations = [];
  await wizard.stepLink("Locations").click();
  await wizard.expectStep("locations");
  for (let i = 0; i < 3; i++) {
    const row = wizard.row(i);
    locations.push({
      name: await row.getByRole("textbox", { name: `Name of location ${i + 1}` }).inputValue(),
      coordinates: {
        lat: Number(await row.getByRole("textbox", { name: `Latitude of location ${i + 1}` }).inputValue()),
        lng: Number(await row.getByRole("textbox", { name: `Longitude of location ${i + 1}` }).inputValue()),
      },
    });
  }
  await wizard.stepLink("Review and pay").click();
  await wizard.expectStep("review");
  const key = await orderApiKey(operator, await demoOrgId(operator));
  const quote = await json<ApiQuote>(
    await request.post(`${ORDERS}/orders/quote`, {
      headers: bearer(key),
      data: {
        client_reference: reference,
        category: "cultural_exterior",
        requirements: { angles: ["front", "entrance"] },
        locations,
        recurring: { enabled: true, frequency: "weekly", day_of_week: 5 },
      },
    }),
    200,
  );
  expect(quote.photos_per_cycle).toBe(6);
  expect(quote.discount?.percent).toBe(15);
  const total = formatMoney(quote.total_cents, quote.currency);
  await expect(wizard.quoteTotal).toHaveText(total);
  await expect(wizard.quote).toContainText(`−${formatMoney(quote.discount?.amount_cents ?? 0, quote.currency)}`);
  await expect(wizard.quote).toContainText(`Subtotal (6 photos)`);
  await expect(wizard.placeOrder).toHaveText(`Place order and pay ${total}`);
  await shootBoth(page, "orders-weekly-5-review");

  // Pay: the order is recurring and active, its first cycle charged, its next cycles listed.
  await wizard.placeOrder.click();
  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?placed=1$/, { timeout: 30_000 });
  const orderPage = new OrderPage(page);
  await expect(orderPage.heading).toHaveText(reference);
  await expect(orderPage.status).toHaveAttribute("data-status", "active");
  await expect(orderPage.placed).toContainText(`${total} charged`);
  await expect(orderPage.locations).toHaveCount(3);
  await expect(page.getByTestId("schedule-description")).toContainText("Every Friday");
  const cycles = page.getByRole("table", { name: "Next cycles" }).locator("tbody tr");
  await expect(cycles).toHaveCount(6);
  // Six Fridays, a week apart.
  const dates = await cycles.locator("time").evaluateAll((times) => times.map((t) => t.getAttribute("datetime") ?? ""));
  for (const date of dates) expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(5);
  for (let i = 1; i < dates.length; i++) expect(Date.parse(`${dates[i]}T00:00:00Z`) - Date.parse(`${dates[i - 1]}T00:00:00Z`)).toBe(7 * 86_400_000);
  // The order's schedule starts where the wizard said it would.
  expect(dates.slice(0, 4)).toEqual(previewDates);
  await orderPage.waitForMap();
  await shootBoth(page, "orders-weekly-6-order");

  const list = new OrdersListPage(page);
  await list.goto();
  await list.findByReference(reference);
  await expect(list.rows).toHaveCount(1);
  // The list names the next cycle: a Friday of the order's schedule, in the order's local time.
  const nextCycle = list.rows.first().getByTestId("order-next-cycle");
  await expect(nextCycle).toContainText(/^Fri \d{1,2} [A-Z][a-z]{2}cycle \d+, daylight$/);
  expect(dates).toContain(await nextCycle.locator("time").getAttribute("datetime"));
  // Cycle 1 is dispatched a day before it starts: none yet, unless the test runs on a Thursday.
  await expect(list.rows.first().getByTestId("order-progress-note")).toHaveText(/^(no cycle dispatched yet|over 1 cycle so far)$/);
  await shootBoth(page, "orders-weekly-7-list");
});
