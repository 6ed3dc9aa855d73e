import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Nothing in a test may reach the internet: the default weather service is off (the tests that
    // need weather start a loopback stand-in), also for the service processes tests spawn.
    env: { WEATHER_URL: "off" },
    // More workers than this machine's 2 cores: most API test time is waiting (on servers, child
    // processes, retry and rate windows), not computing. VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by each
    // file's content and the configuration) and reused by the next vitest process and project: the
    // PostgreSQL phase of `npm test` and the unit project no longer transform lib/ again. Measured
    // on one API file, warm against cold: transform 3.9 s against 17-20 s, 5.2 s of CPU against 7-7.5 s.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "clients/**/*.test.ts"],
          exclude: ["**/*.api.test.ts", "**/node_modules/**"],
          // The files of a worker share its module cache: importing lib/ once per worker instead of
          // once per file (seconds each on a loaded 2-core machine). Safe because the unit tests that
          // fake timers, stub the environment or globals, or swap the log sink undo it after each test.
          isolate: false,
          // A few unit tests open an in-memory PGlite (WASM start + migrations): seconds on a
          // loaded 2-core machine, so hooks get the same allowance as the API project's.
          hookTimeout: 60_000,
          // Three workers share the 2 cores (maxWorkers above): a CPU-bound test (image decoding,
          // exiftool, the sun's path) can wait for a core longer than vitest's default 5 s.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          // Names the run, and drops the PostgreSQL databases of the shared services at its end.
          globalSetup: ["./vitest.api-setup.ts"],
          // The files of a worker share its module cache (the service is imported once per worker,
          // not once per file: seconds each) and the harness's shared service (harness.ts).
          // Safe because no API test mocks modules or stubs globals it does not restore.
          isolate: false,
          // clients/: the SDKs' tests against the running service (the Python client's through python3).
          include: ["lib/**/*.api.test.ts", "clients/**/*.api.test.ts"],
          exclude: ["**/node_modules/**"],
          testTimeout: 30_000,
          // A worker's first file starts its shared service (and may write the PGlite template)
          // while the other workers and the production build share the 2 cores: minutes at worst.
          hookTimeout: 180_000,
          // In CI a failed API test runs once more: these tests start processes, kill them and
          // race real servers on a shared 2-core machine, where a rare timing miss is not a defect
          // of the product. A test that passes only on its second run is still named, with its
          // first failure, in the summary of `npm test` (scripts/run-tests.mjs), to be fixed.
          retry: process.env.CI === "true" ? 1 : 0,
        },
      },
    ],
  },
});
