import { expect, type Locator, type Page } from "@playwright/test";

/** The dashboard's sign-in page (/sign-in): email and password, and the demo account in demo mode. */
export class SignInPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;
  readonly demoButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Sign in to your dashboard" });
    this.form = page.getByRole("form", { name: "Sign in" });
    this.email = this.form.getByLabel("Email");
    this.password = this.form.getByLabel("Password");
    this.submit = this.form.getByRole("button", { name: "Sign in", exact: true });
    this.error = this.form.getByRole("alert");
    this.demoButton = page.getByRole("button", { name: "Sign in with the demo account" });
  }

  async goto(callbackUrl?: string) {
    await this.page.goto(callbackUrl ? `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-in");
    await expect(this.heading).toBeVisible();
  }

  async fill(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  /**
   * Signs in and waits for the dashboard (the missions list unless another page was asked for).
   * `beforeSubmit` runs on the sign-in page, before the form's navigation leaves it.
   */
  async signInAs(
    user: { email: string; password: string },
    landing: RegExp = /\/missions(\?.*)?$/,
    { beforeSubmit }: { beforeSubmit?: () => Promise<void> } = {},
  ) {
    await this.goto();
    await beforeSubmit?.();
    await this.fill(user.email, user.password);
    await expect(this.page).toHaveURL(landing);
  }
}
