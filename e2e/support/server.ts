// What the e2e tests and playwright.config.ts share about the app under test: its port, origin and
// data directory. The first process to load this (the Playwright runner, via the config) creates
// a fresh DATA_DIR and records it in the environment; the test workers it forks inherit that
// environment, so every process sees the same directory and the tests can read the files the
// server wrote there (the operator token).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The port `npm start` listens on; scripts/run-tests.mjs passes a free one in E2E_PORT. */
export const PORT = Number(process.env.E2E_PORT || 3210);

export const ORIGIN = `http://localhost:${PORT}`;

process.env.E2E_DATA_DIR ||= mkdtempSync(join(tmpdir(), "photo-missions-e2e-"));

/** The server's DATA_DIR: empty at the start of each run, so the embedded database is new. */
export const DATA_DIR: string = process.env.E2E_DATA_DIR;

/** Where the tests save the screenshots worth looking at (inside Playwright's outputDir). */
export const SCREENSHOT_DIR = join(process.cwd(), "test-results", "screenshots");

/** The server's METRICS_TOKEN (playwright.config.ts): tests read /api/metrics to count API requests. */
export const METRICS_TOKEN = "e2e-metrics-token-not-a-secret";
