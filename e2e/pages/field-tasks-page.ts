import type { Locator, Page } from "@playwright/test";

/** The zoomer's phone page (/field), its Tasks tab and one task. */
export class FieldTasksPage {
  readonly demoSignIn: Locator;
  readonly demoLocation: Locator;
  readonly tasksTab: Locator;
  readonly tasks: Locator;
  readonly notice: Locator;
  readonly detail: Locator;
  readonly map: Locator;
  readonly take: Locator;
  readonly giveBack: Locator;
  readonly reservation: Locator;
  readonly photoInput: Locator;
  readonly send: Locator;
  readonly progress: Locator;
  readonly checking: Locator;
  readonly verification: Locator;
  readonly checks: Locator;
  readonly instructions: Locator;
  readonly retakeOpened: Locator;
  readonly backToTasks: Locator;

  constructor(readonly page: Page) {
    this.demoSignIn = page.getByRole("button", { name: "Continue as demo zoomer" });
    this.demoLocation = page.getByRole("button", { name: /demo location/ });
    this.tasksTab = page.getByRole("tab", { name: /^Tasks/ });
    this.tasks = page.getByRole("tabpanel", { name: /^Tasks/ }).getByTestId("field-task");
    this.notice = page.getByRole("status").filter({ hasText: /gave back/ });
    this.detail = page.getByTestId("task-detail");
    this.map = this.detail.getByRole("img", { name: /^Map:/ });
    this.take = page.getByRole("button", { name: "Take this task" });
    this.giveBack = page.getByRole("button", { name: "Give it back" });
    this.reservation = page.getByTestId("reservation");
    this.photoInput = page.getByLabel(/^Photo \(JPEG/);
    this.send = page.getByRole("button", { name: "Send photo" });
    this.progress = page.getByRole("progressbar", { name: "Upload progress" });
    this.checking = page.getByTestId("task-checking");
    this.verification = page.getByTestId("task-verification");
    this.checks = this.verification.getByTestId("verification-check");
    this.instructions = page.getByTestId("verification-instructions");
    this.retakeOpened = page.getByTestId("retake-opened");
    this.backToTasks = page.getByRole("button", { name: "← All tasks" });
  }

  /** Signed in as a fresh demo zoomer, standing at the demo location, on the Tasks tab. */
  async openTasksAtDemoLocation() {
    await this.page.goto("/field");
    await this.demoSignIn.click();
    await this.demoLocation.click();
    await this.tasksTab.click();
  }

  task(name: string): Locator {
    return this.tasks.filter({ hasText: name });
  }

  check(name: string): Locator {
    return this.verification.locator(`[data-check="${name}"]`);
  }

  async open(name: string, angle = /.*/) {
    await this.task(name).getByRole("button", { name: angle }).click();
  }
}
