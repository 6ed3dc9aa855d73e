import type { Locator, Page } from "@playwright/test";

/** The API reference (/docs): Swagger UI rendering /api/v1/openapi.json. */
export class DocsPage {
  readonly heading: Locator;
  readonly reference: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Photo Missions API reference" });
    this.reference = page.getByTestId("api-reference");
  }

  async goto() {
    await this.page.goto("/docs");
  }

  /** A tag section of the reference, e.g. "Missions". */
  tag(name: string): Locator {
    return this.reference.getByRole("heading", { name: new RegExp(`^${name}\\b`) });
  }

  /** An operation's summary row, e.g. operation("POST", "/api/v1/missions"). */
  operation(method: string, path: string): Locator {
    const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.reference.getByRole("button", { name: new RegExp(`^${method}\\s*${escaped}(\\s|$)`) });
  }

  /** The coloured method label inside an operation's summary row. */
  methodBadge(method: string, path: string): Locator {
    return this.operation(method, path).getByText(method, { exact: true });
  }
}
