// Browser tests against the production build, served by `next start` exactly as a user runs it:
// one command, the embedded database in a fresh temporary DATA_DIR, no external services.
// Chromium is Debian's (/usr/bin/chromium): Playwright's own browsers cannot be downloaded here.
import { rmSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { DATA_DIR, METRICS_TOKEN, ORIGIN, PORT } from "./e2e/support/server";

const CI = Boolean(process.env.CI);

// The runner process created DATA_DIR (workers only inherit it): remove it when the run ends,
// unless asked to keep it for a post-mortem.
if (!process.env.E2E_WORKER_OF && !process.env.E2E_KEEP_DATA_DIR) {
  process.env.E2E_WORKER_OF = String(process.pid);
  process.on("exit", () => rmSync(DATA_DIR, { recursive: true, force: true }));
}

const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
  ],
};

const DEMO_AFTER_ALL = /demo-alive\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  forbidOnly: CI,
  retries: 0,
  workers: CI ? 1 : undefined,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: ORIGIN,
    headless: true,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: DEMO_AFTER_ALL,
      use: { ...devices["Desktop Chrome"], launchOptions: CHROMIUM },
    },
    {
      // Completes every demo mission (a visitor arriving late): after all specs that pick demo
      // missions by title.
      name: "demo-after-all",
      testMatch: DEMO_AFTER_ALL,
      dependencies: ["chromium"],
      use: { ...devices["Desktop Chrome"], launchOptions: CHROMIUM },
    },
  ],
  webServer: {
    // Always a fresh build: a stale .next would test yesterday's code. scripts/run-tests.mjs runs
    // it in a snapshot of the tree (E2E_APP_DIR) so it cannot collide with other work in this one.
    command: "npm run build && npm start",
    cwd: process.env.E2E_APP_DIR || ".",
    url: `${ORIGIN}/api/health`,
    reuseExistingServer: false,
    timeout: 10 * 60_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(PORT),
      PUBLIC_ORIGIN: ORIGIN,
      DATA_DIR,
      NODE_ENV: "production",
      // Empty means unset (lib/env.ts): the embedded database and a generated operator token,
      // whatever the calling shell exports.
      DATABASE_URL: "",
      ADMIN_TOKEN: "",
      NEXT_TELEMETRY_DISABLED: "1",
      // Lets tests count the API requests a page caused (e2e/support/api.ts apiRequestCounts).
      METRICS_TOKEN,
      // Webhook targets in the browser tests are closed ports on loopback: nothing they register
      // may send traffic off this machine. The port rule still holds (the refusal tests use it).
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // Nor may the app reach the internet for delivered photos' weather.
      WEATHER_URL: "off",
      // The offline basemap only: no street style or imagery from the internet, whatever the
      // calling shell exports (e2e/basemap.spec.ts starts its own servers for the others).
      MAP_BASEMAP: "offline",
      MAP_STYLE_URL: "",
      MAP_IMAGERY_URL: "",
      MAP_IMAGERY_ATTRIBUTION: "",
    },
  },
});
