// Browser tests against the production build, served by `npm start` (scripts/server.ts) exactly
// as a user runs it: one command, the embedded database in a fresh temporary DATA_DIR, no
// external services.
// Chromium is Debian's (chromium-headless-shell, or chromium): Playwright's own browsers cannot be
// downloaded here.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { DATA_DIR, METRICS_TOKEN, ORIGIN, PORT } from "./e2e/support/server";

const CI = Boolean(process.env.CI);

/** The app's environment under test, shared with the build in scripts/run-tests.mjs (see webServer.env). */
const APP_ENV = JSON.parse(readFileSync(new URL("./e2e/support/app-env.json", import.meta.url), "utf8")) as Record<string, string>;

// The runner process created DATA_DIR (workers only inherit it): remove it when the run ends,
// unless asked to keep it for a post-mortem.
if (!process.env.E2E_WORKER_OF && !process.env.E2E_KEEP_DATA_DIR) {
  process.env.E2E_WORKER_OF = String(process.pid);
  process.on("exit", () => rmSync(DATA_DIR, { recursive: true, force: true }));
}

/**
 * The browser: Debian's chromium-headless-shell when installed, as Playwright itself runs headless
 * tests by default (its "chromium-headless-shell"); else the full Chromium in headless mode.
 * E2E_CHROMIUM names another binary. The shell is the same engine without the browser's UI
 * layers: over the whole browser phase on 2 cores it took 18 % less CPU (docs/testing.md).
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM_PATH = process.env.E2E_CHROMIUM || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const CHROMIUM = {
  executablePath: CHROMIUM_PATH,
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

// Specs that share state beyond an organisation of their own, run one at a time (in file order)
// on one worker, beside the other specs: the demo account and its data (the demo partner's
// orders, the demo zoomer at the demo location, where the field page lists every organisation's
// work nearby), and the order wizard, whose spec counts the server's draft requests (/api/metrics)
// while it places an order, so no other spec may be in a wizard then. Every other spec makes its
// own organisation and user (e2e/support/fixtures.ts) and runs in parallel with the rest.
const SHARED_STATE = new RegExp(
  `/(${[
    "dashboard-no-secrets",
    "dashboard-sign-in",
    "field",
    "field-offline",
    "field-outbox-owner",
    "field-pre-send-checks",
    "field-tasks",
    "host-independent-photos",
    "languages",
    "languages-walk",
    // Creates a mission at the Duomo, which the field specs would see beside the demo's.
    "operator-flow",
    "orders-delivery-promise",
    "orders-review",
    "orders-roles",
    "orders-wizard",
    "phone-width",
  ].join("|")})\\.spec\\.ts$`,
);

/** Parallel workers in CI (E2E_WORKERS overrides); locally Playwright's default. */
const WORKERS = Number(process.env.E2E_WORKERS) || (CI ? 2 : undefined);

/** scripts/run-tests.mjs builds the app beforehand (beside the unit tests) and says so here. */
const PREBUILT = process.env.E2E_PREBUILT === "1";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  forbidOnly: CI,
  // In CI a failed test runs once more, recording a trace (below); one that passes only then is
  // listed as flaky in scripts/run-tests.mjs's summary, as a retried API test is.
  retries: CI ? 1 : 0,
  workers: WORKERS,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: ORIGIN,
    headless: true,
    screenshot: "only-on-failure",
    // Recording a trace for every test and discarding it on a pass cost 14-19 % of the phase's
    // CPU (and 11-16 % of its wall time) on 2 cores, measured over 13 specs in 2 interleaved
    // rounds: in CI only a retry records one. Locally every failure keeps its trace.
    trace: CI ? "on-first-retry" : "retain-on-failure",
  },
  projects: [
    // First: its specs run one after another, the longest chain of the run, so a worker starts on
    // them at once while the others take the independent specs (Playwright hands out work in
    // project order, skipping a project at its worker limit).
    {
      name: "shared-state",
      testMatch: SHARED_STATE,
      workers: 1,
      use: { ...devices["Desktop Chrome"], launchOptions: CHROMIUM },
    },
    {
      name: "chromium",
      testIgnore: [DEMO_AFTER_ALL, SHARED_STATE],
      use: { ...devices["Desktop Chrome"], launchOptions: CHROMIUM },
    },
    {
      // Completes every demo mission (a visitor arriving late): after all specs that pick demo
      // missions by title.
      name: "demo-after-all",
      testMatch: DEMO_AFTER_ALL,
      dependencies: ["chromium", "shared-state"],
      use: { ...devices["Desktop Chrome"], launchOptions: CHROMIUM },
    },
  ],
  webServer: {
    // Always a fresh build: a stale .next would test yesterday's code. scripts/run-tests.mjs runs
    // it in a snapshot of the tree (E2E_APP_DIR) so it cannot collide with other work in this one,
    // and builds that snapshot itself while the unit tests run (E2E_PREBUILT=1, same APP_ENV).
    command: PREBUILT ? "npm start" : "npm run build && npm start",
    cwd: process.env.E2E_APP_DIR || ".",
    url: `${ORIGIN}/api/health`,
    reuseExistingServer: false,
    timeout: 10 * 60_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    // e2e/support/app-env.json (shared with the build in scripts/run-tests.mjs):
    // - NODE_ENV production; DATABASE_URL and ADMIN_TOKEN empty, which means unset (lib/env.ts):
    //   the embedded database and a generated operator token, whatever the calling shell exports.
    // - WEBHOOK_ALLOW_PRIVATE_TARGETS: webhook targets in the browser tests are closed ports on
    //   loopback, so nothing they register may send traffic off this machine (the port rule still
    //   holds: the refusal tests use it). WEATHER_URL off: nor may delivered photos' weather.
    // - MAP_*: the offline basemap only, no street style or imagery from the internet, whatever
    //   the calling shell exports (e2e/basemap.spec.ts starts its own servers for the others).
    env: {
      ...APP_ENV,
      PORT: String(PORT),
      PUBLIC_ORIGIN: ORIGIN,
      DATA_DIR,
      // Lets tests count the API requests a page caused (e2e/support/api.ts apiRequestCounts).
      METRICS_TOKEN,
    },
  },
});
