import { expect, type Locator, type Page } from "@playwright/test";

/** The orders list (/orders): status tabs, find by reference, the table. */
export class OrdersListPage {
  readonly heading: Locator;
  readonly newOrder: Locator;
  readonly tabs: Locator;
  readonly reference: Locator;
  readonly find: Locator;
  readonly table: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Orders" });
    this.newOrder = page.getByRole("link", { name: "New order" });
    this.tabs = page.getByRole("navigation", { name: "Order status" });
    this.reference = page.getByRole("searchbox", { name: "Find an order by your reference" });
    this.find = page.getByRole("button", { name: "Find" });
    this.table = page.getByRole("table", { name: /Orders/ });
    this.rows = page.getByTestId("order-row");
  }

  async goto(query = "") {
    await this.page.goto(`/orders${query}`);
    await expect(this.heading).toBeVisible();
  }

  async findByReference(reference: string, tab: "Open" | "Done" | "Cancelled" | "All" = "All") {
    await this.tabs.getByRole("link", { name: tab, exact: true }).click();
    await this.reference.fill(reference);
    await this.find.click();
    await expect(this.page).toHaveURL(new RegExp(`reference=${encodeURIComponent(reference)}`));
  }
}
