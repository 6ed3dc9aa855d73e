import type { Locator, Page } from "@playwright/test";

/** The landing page (/). */
export class HomePage {
  readonly heading: Locator;
  readonly startHere: Locator;
  readonly apiReferenceLink: Locator;
  readonly openApiLink: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.startHere = page.getByRole("navigation", { name: "Start here" });
    this.apiReferenceLink = this.startHere.getByRole("link", { name: /API reference/ });
    this.openApiLink = this.startHere.getByRole("link", { name: /OpenAPI document/ });
  }

  async goto() {
    await this.page.goto("/");
  }
}
