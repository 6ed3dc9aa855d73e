// Chromium for the browser benchmarks (map-points, first-load-js, lighthouse-mission): Debian's build (Playwright's
// own browsers cannot be downloaded here), software WebGL, a fixed viewport, and a signed-in
// session made once per run and reused by every fresh context.
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import type { DashboardUser } from "./dashboard-fixture";
import { freePort } from "./http";
import type { Supervisor } from "./processes";

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

/**
 * Debian's Chromium as a child process with `args`, a remote-debugging port and an empty profile
 * of its own (a tool such as Lighthouse drives it through the port); `stop` also removes the profile.
 */
export async function startDebuggableChromium(supervisor: Supervisor, args: readonly string[]): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = supervisor.tempDir("lighthouse-chrome");
  const child = supervisor.spawn({
    name: "chromium",
    command: CHROMIUM,
    args: [...args, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.hasExited()) throw new Error(`chromium exited before it was ready:\n${child.logTail()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`chromium did not open its debugging port:\n${child.logTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port,
    stop: async () => {
      await child.stop();
      supervisor.removeTempDir(profile);
    },
  };
}
