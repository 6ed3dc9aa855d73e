import { expect, type Locator, type Page } from "@playwright/test";

/** The frame around every dashboard page: navigation, organisation switcher, user, sign out. */
export class DashboardShell {
  readonly nav: Locator;
  readonly missionsLink: Locator;
  readonly webhooksLink: Locator;
  readonly credentialsLink: Locator;
  readonly orgSwitcher: Locator;
  readonly signOut: Locator;
  readonly main: Locator;
  /** Below 768 px: the button that shows the navigation, organisation, language and user. */
  readonly menuButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole("navigation", { name: "Dashboard" });
    this.missionsLink = this.nav.getByRole("link", { name: "Missions" });
    this.webhooksLink = this.nav.getByRole("link", { name: "Webhooks" });
    this.credentialsLink = this.nav.getByRole("link", { name: "API credentials" });
    this.orgSwitcher = page.getByRole("banner").getByRole("combobox", { name: "Organisation" });
    this.signOut = page.getByRole("button", { name: "Sign out" });
    this.main = page.locator("main#main");
    this.menuButton = page.getByRole("banner").getByRole("button", { name: "Menu" });
  }

  /** The organisation the dashboard acts for: the switcher's choice, or the name shown for a single membership. */
  currentOrg(): Locator {
    return this.page.getByRole("banner");
  }

  async switchOrganisation(name: string) {
    await this.orgSwitcher.selectOption({ label: name });
    await expect(this.orgSwitcher).toBeEnabled();
    await expect(this.orgSwitcher.locator("option:checked")).toHaveText(name);
  }
}
