// The delivery promise in the dashboard, as the demo user: before paying, the wizard's review
// shows each location's estimate and the history it rests on — for Florence, where the demo's
// simulated contributor has a month of deliveries — and says plainly that none can be given yet
// for Oslo, where nobody has worked. Screenshots at 1366 and 390 px go to SCREENSHOT_DIR.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { OrderWizardPage } from "./pages/order-wizard-page";
import { expectNoSeriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/operator";
import { SCREENSHOT_DIR } from "./support/server";

/** The page at a desktop's and a phone's width, full length, then axe on it. */
async function shootWidths(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [width, height, suffix] of [
    [390, 844, "390"],
    [1366, 900, "1366"],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${suffix}.png`), caret: "hide", animations: "disabled", fullPage: true });
  }
  await expectNoSeriousViolations(page);
}

test.beforeEach(async ({ page, signIn }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn.goto();
  await signIn.demoButton.click();
  await expect(page).toHaveURL(/\/missions(\?.*)?$/);
});

test("the wizard shows Florence's estimate with its basis, and that Oslo has none yet", async ({ page }) => {
  test.setTimeout(120_000);
  const wizard = new OrderWizardPage(page);
  await wizard.startNew();
  await wizard.pasteLocations("name,lat,lng\nLoggia dei Lanzi,43.7694,11.2556\nOslo City Hall,59.9114,10.7339");
  await expect(wizard.locationRows).toHaveCount(2);
  await wizard.goNext("what");
  await wizard.category("Cultural site, outside").check();
  await wizard.angle("Front").check();
  await wizard.reference.fill(unique("e2e-promise"));
  await wizard.goNext("when");
  await wizard.goNext("delivery");
  await wizard.goNext("review");

  const estimates = page.getByTestId("delivery-estimates");
  await expect(estimates.getByRole("heading", { name: "When the photos would arrive" })).toBeVisible();
  const [florence, oslo] = [estimates.getByTestId("location-estimate").nth(0), estimates.getByTestId("location-estimate").nth(1)];
  await expect(florence).toContainText("Loggia dei Lanzi");
  await expect(florence).toHaveAttribute("data-estimate", "yes");
  await expect(florence).toContainText("Can be done");
  // By when, on the reader's clock ("Tue 1 Dec, 14:00 CET"), and the history it rests on.
  await expect(florence.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}/);
  await expect(florence.getByTestId("estimate-basis")).toContainText(
    /9 in 10 of the \d+ similar tasks delivered within 25 km of here took [\d.]+ h or less; half took [\d.]+ h or less\./,
  );
  await expect(florence.getByTestId("estimate-basis")).toContainText(/contributors? sent photos within 25 km in the last 30 days/);

  await expect(oslo).toContainText("Oslo City Hall");
  await expect(oslo).toHaveAttribute("data-estimate", "no");
  await expect(oslo).toHaveAttribute("data-feasible", "false");
  await expect(oslo.getByTestId("no-estimate")).toHaveText("No estimate yet: no photos have been taken near here (within 100 km).");
  await expect(oslo).toContainText("Cannot be done as ordered");
  await expect(oslo.getByTestId("location-reasons")).toContainText("No contributor has sent a photo within 100 km of here in the last 30 days");
  // The whole order has no estimate while one of its places has none.
  await expect(estimates.getByTestId("order-estimate")).toContainText("1 location has no estimate yet, so none can be given for the whole order.");
  await estimates.scrollIntoViewIfNeeded();
  await shootWidths(page, "orders-wizard-estimate");
});

test("the orders list and an order show where each stands against its promise; a late location is cancelled free of charge", async ({ page }) => {
  test.setTimeout(120_000);
  // The demo's month of history: every past order delivered, on time or late, in words.
  await page.goto("/orders?status=done");
  const rows = page.getByTestId("order-row").filter({ hasText: "demo-history-" });
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().locator("[data-delivery-status]")).toHaveAttribute("data-delivery-status", /^delivered_(on_time|late)$/);
  const late = rows.filter({ has: page.locator('[data-delivery-status="delivered_late"]') }).first();
  await expect(late).toContainText("Delivered late");
  await shootWidths(page, "orders-list-promise");

  await late.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+$/);
  // Found by its name: cancelling may change what its badge says.
  const lateName =
    (await page
      .getByTestId("order-location")
      .filter({ has: page.locator('[data-delivery-status="delivered_late"]') })
      .first()
      .getByRole("button")
      .locator("span.font-medium")
      .textContent()) ?? "";
  expect(lateName).not.toBe("");
  const lateLocation = page.getByTestId("order-location").filter({ hasText: lateName });
  await expect(lateLocation.getByTestId("location-promise")).toContainText(/Promised by [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}/);
  await shootWidths(page, "order-page-promise");
  await lateLocation.getByRole("button", { name: "Cancel this location free of charge" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("It was not delivered by its promise.");
  await dialog.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(lateLocation.getByTestId("location-promise")).toContainText("Cancelled free of charge");
  await expect(lateLocation.getByRole("button", { name: "Cancel this location free of charge" })).toHaveCount(0);
});

test("a past order's mission and the order itself say what was asked and when it was due, and that its photos are no longer kept", async ({ page }) => {
  // The live demo's completed missions are newer, so the history's may be a few pages in.
  const rows = page.getByRole("row").filter({ hasText: "demo-history-" });
  for (let n = 1; n <= 10; n++) {
    await page.goto(`/missions?status=completed&page=${n}`);
    await expect(page.getByRole("table")).toBeVisible();
    if ((await rows.count()) > 0) break;
  }
  await rows.first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/missions\/mis_[0-9a-z]+$/);
  const brief = page.getByTestId("order-mission-brief");
  await expect(brief.getByRole("link", { name: /^For order “demo-history-/ })).toHaveAttribute("href", /^\/orders\/ord_/);
  await expect(brief.getByTestId("mission-due")).toHaveText(/^Due by \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} \S+$/);
  await expect(brief.getByRole("list", { name: "Angles asked for" }).getByRole("listitem").first()).toContainText(" — ");
  // Its verdicts are kept, its photos not: the list says so instead of "No submissions yet".
  await expect(page.getByTestId("mission-approved")).toHaveText(/^(\d+) of \1$/);
  await expect(page.getByText("Photos no longer kept")).toBeVisible();
  await expect(page.getByText("No submissions yet")).toHaveCount(0);
  await shootWidths(page, "order-mission-history");

  // Its order, delivered in full: the photos are gone, not "not delivered yet".
  await brief.getByRole("link", { name: /^For order “demo-history-/ }).click();
  await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+$/);
  await expect(page.getByTestId("delivered-count")).toContainText(/(\d+) of \1/);
  await expect(page.getByTestId("photos-empty")).toHaveText("This order’s photos are no longer kept here; its deliveries, timeline and verdicts are.");
  await shootWidths(page, "order-history");
});

test("the on-time report: a month of demo deliveries as a chart and as a table of the same figures", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/orders");
  await page.getByRole("link", { name: "On-time report" }).click();
  await expect(page).toHaveURL(/\/orders\/reports\/on-time$/);
  await expect(page.getByRole("heading", { level: 1, name: "On-time report" })).toBeVisible();
  const report = page.getByTestId("on-time-report");
  const chart = report.getByRole("img", { name: /^On-time deliveries per month, / });
  await expect(chart).toBeVisible();
  // The count axis says what it counts, and on a desktop the chart fills its card (its text drawn
  // at the table's size, not a small drawing blown up beside empty space).
  await expect(chart.getByText("Locations", { exact: true })).toBeVisible();
  const [chartBox, reportBox] = await Promise.all([chart.boundingBox(), report.boundingBox()]);
  expect(chartBox?.width ?? 0).toBeGreaterThan(0.9 * (reportBox?.width ?? Infinity));
  const table = report.getByRole("table", { name: "Locations delivered per month, on time and late" });
  const monthRows = table.locator("tbody tr");
  await expect(monthRows).toHaveCount(6);
  // The history's month: the figures add up, and some locations were late.
  const figures = await monthRows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.replace(/^\D*(?=\d|–)/, "") ?? "")),
  );
  const delivered = figures.reduce((n, row) => n + Number.parseInt(row[1] ?? "0", 10), 0);
  const onTime = figures.reduce((n, row) => n + Number.parseInt(row[2] ?? "0", 10), 0);
  const lateCount = figures.reduce((n, row) => n + Number.parseInt(row[3] ?? "0", 10), 0);
  expect(delivered).toBeGreaterThanOrEqual(60);
  expect(onTime + lateCount).toBe(delivered);
  expect(lateCount).toBeGreaterThan(0);
  await expect(
    report
      .getByTestId("on-time-share")
      .filter({ hasText: /^\d+%$/ })
      .first(),
  ).toBeVisible();
  await shootWidths(page, "on-time-report");
});
