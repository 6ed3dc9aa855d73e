import { expect, type Locator, type Page } from "@playwright/test";

/** The webhooks page (/webhooks): the add-endpoint form, the one-time secret, endpoints and their delivery logs. */
export class WebhooksPage {
  readonly heading: Locator;
  readonly addForm: Locator;
  readonly url: Locator;
  readonly allEvents: Locator;
  readonly description: Locator;
  readonly addEndpoint: Locator;
  readonly secretReveal: Locator;
  readonly revealedSecret: Locator;
  readonly secretStored: Locator;
  readonly endpoints: Locator;
  readonly emptyState: Locator;
  readonly forbidden: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Webhooks" });
    this.addForm = page.getByRole("form", { name: "Add webhook endpoint" });
    this.url = this.addForm.getByLabel("Endpoint URL");
    this.allEvents = this.addForm.getByRole("checkbox", { name: /All events/ });
    this.description = this.addForm.getByLabel("Description");
    this.addEndpoint = this.addForm.getByRole("button", { name: /^Add(ing)? endpoint/ });
    this.secretReveal = page.getByRole("region", { name: "New signing secret" });
    this.revealedSecret = this.secretReveal.getByTestId("revealed-secret");
    this.secretStored = this.secretReveal.getByRole("button", { name: "Done, I have stored it" });
    this.endpoints = page.getByRole("list", { name: "Webhook endpoints" });
    this.emptyState = page.getByText("No endpoints yet");
    this.forbidden = page.getByRole("alert").filter({ hasText: /You need the .* role for this page/ });
  }

  async goto() {
    await this.page.goto("/webhooks");
    await expect(this.heading).toBeVisible();
  }

  async register(url: string, description?: string) {
    await this.url.fill(url);
    if (description) await this.description.fill(description);
    await this.addEndpoint.click();
  }

  endpoint(url: string): WebhookEndpointCard {
    return new WebhookEndpointCard(this.endpoints.getByRole("listitem").filter({ has: this.page.getByRole("heading", { name: url, exact: true }) }));
  }
}

/** One endpoint's card: state, actions and its delivery log. */
export class WebhookEndpointCard {
  readonly state: Locator;
  readonly lastDelivery: Locator;
  readonly sendTest: Locator;
  readonly status: Locator;
  readonly toggleDeliveries: Locator;
  readonly deliveries: Locator;
  readonly deliveryRows: Locator;

  constructor(readonly root: Locator) {
    this.state = root.getByTestId("endpoint-state");
    this.lastDelivery = root.getByTestId("last-delivery");
    this.sendTest = root.getByRole("button", { name: /^(Send test event|Sending…)$/ });
    this.status = root.getByRole("status");
    this.toggleDeliveries = root.getByRole("button", { name: /^(Show|Hide) deliveries/ });
    this.deliveries = root.getByRole("table", { name: "Deliveries" });
    this.deliveryRows = root.getByTestId("delivery-row");
  }

  delivery(event: string): { row: Locator; expand: Locator; attempts: Locator } {
    const row = this.deliveryRows.filter({ has: this.root.page().getByRole("button", { name: event }) }).first();
    return {
      row,
      expand: row.getByRole("button", { name: event }),
      attempts: this.root.getByRole("table", { name: "Attempts" }).getByTestId("delivery-attempt"),
    };
  }
}
