// The order wizard end to end, as the demo user: two locations clicked on the map and one pasted
// as CSV, angles chosen, back and a refresh (the server-saved draft survives), the quote, and a
// double click on "Place order and pay" that makes exactly one order, in progress. Then an error
// of the order interface (an unsafe webhook URL) shown at the step and field it concerns.
// Screenshots of every step go to SCREENSHOT_DIR. The demo organisation may hold other orders:
// each test finds its own by a reference of its own.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { OrderPage } from "./pages/order-page";
import { OrderWizardPage } from "./pages/order-wizard-page";
import { OrdersListPage } from "./pages/orders-list-page";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

/** A full-page picture for people to look at, then axe on the same state (no serious violations). */
async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), caret: "hide", animations: "disabled", fullPage: true });
  await expectNoSeriousViolations(page);
}

test.beforeEach(async ({ page, signIn }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn.goto();
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);
});

test("place an order through the wizard: map clicks, a CSV, angles, back and refresh, the quote, one order from a double click", async ({ page }) => {
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

  // A double click places one order, paid and in progress.
  await wizard.placeOrder.dblclick();
  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?placed=1$/, { timeout: 30_000 });
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
  await expect(wizard.quote).toBeVisible();

  await wizard.placeOrder.click();
  await expect(wizard.placeError).toBeVisible({ timeout: 30_000 });
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
