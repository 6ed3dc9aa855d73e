// Chromium for the browser benchmarks (map-points, first-load-js): Debian's build (Playwright's
// own browsers cannot be downloaded here), software WebGL, a fixed viewport, and a signed-in
// session made once per run and reused by every fresh context.
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import type { DashboardUser } from "./dashboard-fixture";

export const CHROMIUM = "/usr/bin/chromium";
export const VIEWPORT = { width: 1280, height: 800 } as const;
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  // Chromium's own background traffic (component updates, field trials) is not the page's.
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh context: its own empty HTTP cache and no compiled-code cache, so every page load is a
 * first visit, for the subject and the baseline alike.
 */
export function freshContext(browser: Browser, storageState?: StorageState): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, ...(storageState ? { storageState } : {}) });
}

/** Signs in through /sign-in as a person would and returns the session to reuse. */
export async function signIn(browser: Browser, origin: string, user: DashboardUser): Promise<StorageState> {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${origin}/missions`, { timeout: 60_000 });
    return await context.storageState();
  } finally {
    await context.close();
  }
}
