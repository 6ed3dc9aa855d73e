import type { Locator, Page } from "@playwright/test";

/** The zoomer's phone page (/field). */
export class FieldPage {
  readonly demoSignIn: Locator;
  readonly demoLocation: Locator;
  readonly missions: Locator;
  readonly photosInput: Locator;
  readonly angle: Locator;
  readonly send: Locator;
  readonly progress: Locator;
  /** The photos this phone keeps until the server's verdict (the last one is the newest). */
  readonly outbox: Locator;
  readonly verdict: Locator;
  readonly waitingCount: Locator;

  constructor(readonly page: Page) {
    this.demoSignIn = page.getByRole("button", { name: "Continue as demo zoomer" });
    this.demoLocation = page.getByRole("button", { name: /demo location/ });
    this.missions = page.getByTestId("open-mission");
    this.photosInput = page.getByLabel(/Photos/);
    this.angle = page.getByLabel(/What do they show/);
    this.send = page.getByRole("button", { name: /^Send/ });
    this.progress = page.getByRole("progressbar", { name: "Upload progress" });
    this.outbox = page.getByTestId("outbox-entry");
    this.verdict = this.outbox.last();
    this.waitingCount = page.getByTestId("outbox-count");
  }

  async goto() {
    await this.page.goto("/field");
  }

  mission(title: RegExp): Locator {
    return this.missions.filter({ hasText: title });
  }
}
