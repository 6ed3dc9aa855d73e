import { expect, type Locator, type Page } from "@playwright/test";

/** The missions list (/missions): status tabs, search, the table and its empty state. */
export class MissionsListPage {
  readonly heading: Locator;
  readonly description: Locator;
  readonly newMission: Locator;
  readonly drawFirstMission: Locator;
  readonly statusTabs: Locator;
  readonly search: Locator;
  readonly table: Locator;
  readonly emptyState: Locator;
  readonly viewerNote: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Missions" });
    this.description = page.getByText(/^Areas your contributors photograph for /);
    this.newMission = page.getByRole("link", { name: "New mission" });
    this.drawFirstMission = page.getByRole("link", { name: "Draw your first mission" });
    this.statusTabs = page.getByRole("navigation", { name: "Mission status" });
    this.search = page.getByRole("searchbox", { name: "Search missions" });
    this.table = page.getByRole("table", { name: /Missions/ });
    this.emptyState = page.getByText(/^No (active |completed |cancelled )?missions yet$/);
    this.viewerNote = page.getByText(/You can look at missions and submissions/);
  }

  async goto(query = "") {
    await this.page.goto(`/missions${query}`);
    await expect(this.heading).toBeVisible();
  }

  /** The description names the organisation the dashboard is acting for. */
  async expectOrganisation(name: string) {
    await expect(this.description).toHaveText(`Areas your contributors photograph for ${name}.`);
  }

  missionLink(title: string): Locator {
    return this.table.getByRole("link", { name: title, exact: true });
  }

  async tab(label: "Active" | "Completed" | "Cancelled" | "All") {
    await this.statusTabs.getByRole("link", { name: label }).click();
    await expect(this.statusTabs.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
  }
}
