import { expect, type Locator, type Page } from "@playwright/test";

/** The API credentials page (/settings/credentials): the organisation's partner API clients and API keys. */
export class CredentialsPage {
  readonly heading: Locator;
  readonly forbidden: Locator;
  readonly clients: Locator;
  readonly apiKeys: Locator;
  readonly createClientForm: Locator;
  readonly createKeyForm: Locator;
  readonly secretReveals: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "API credentials" });
    this.forbidden = page.getByRole("alert").filter({ hasText: /You need the .* role for this page/ });
    this.clients = page.getByRole("table", { name: "API clients" });
    this.apiKeys = page.getByRole("table", { name: "API keys" });
    this.createClientForm = page.getByRole("form", { name: "Create API client" });
    this.createKeyForm = page.getByRole("form", { name: "Create API key" });
    this.secretReveals = page.getByRole("region", { name: /^New (client secret|API key)$/ });
  }

  async goto() {
    await this.page.goto("/settings/credentials");
    await expect(this.heading).toBeVisible();
  }

  /** The row of a client in the table, by its client id. */
  client(clientId: string): Locator {
    return this.clients.getByTestId("api-client-row").filter({ hasText: clientId });
  }
}
