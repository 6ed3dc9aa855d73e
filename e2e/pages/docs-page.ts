import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The API reference (/docs): the server-rendered outline of /api/v1/openapi.json (tags, operations
 * as disclosure rows), and the interactive console — Swagger UI, loaded when asked for.
 */
export class DocsPage {
  readonly heading: Locator;
  readonly outline: Locator;
  readonly openConsoleButton: Locator;
  /** Swagger UI, once the console is open. */
  readonly reference: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Photo Missions API reference" });
    this.outline = page.getByTestId("api-outline");
    this.openConsoleButton = page.getByRole("button", { name: "Open the interactive console" });
    this.reference = page.getByTestId("api-reference");
  }

  async goto() {
    await this.page.goto("/docs");
  }

  /** Opens Swagger UI and waits for its first tag. */
  async openConsole() {
    await this.openConsoleButton.click();
    await expect(this.tag("Missions")).toBeVisible({ timeout: 30_000 });
  }

  /** A tag section of the outline, e.g. "Missions". */
  outlineTag(name: string): Locator {
    return this.outline.getByRole("heading", { level: 2, name, exact: true });
  }

  /** An operation's row in the outline, e.g. outlineOperation("POST", "/api/v1/missions"). */
  outlineOperation(method: string, path: string): Locator {
    return this.outline.locator(`[data-operation="${method} ${path}"] > summary`);
  }

  /** A tag section of Swagger UI, e.g. "Missions". */
  tag(name: string): Locator {
    return this.reference.getByRole("heading", { name: new RegExp(`^${name}\\b`) });
  }

  /** An operation's summary row in Swagger UI, e.g. operation("POST", "/api/v1/missions"). */
  operation(method: string, path: string): Locator {
    const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.reference.getByRole("button", { name: new RegExp(`^${method}\\s*${escaped}(\\s|$)`) });
  }

  /** The coloured method label inside an operation's summary row. */
  methodBadge(method: string, path: string): Locator {
    return this.operation(method, path).getByText(method, { exact: true });
  }
}
