// Starts the real service app on a loopback port for API tests: real HTTP, real database
// (in-memory PGlite, or the PostgreSQL named by TEST_DATABASE_URL), nothing mocked.
//
// Shared or fresh: `startTestService()` with no arguments returns the service shared by every
// test file that runs in this vitest worker (the api project runs files without isolation,
// vitest.config.ts), so a file costs a new organisation and credentials (TestClient.partner())
// instead of a new service and database. Such a file must not depend on global state: it may not
// count rows across organisations, change the schema, capture the process's log, or need an empty
// database. Its `close()` leaves the shared service running (the worker's exit ends it).
// Any configuration (overrides or options) gives a service of its own, as does `{ fresh: true }`
// for a file that needs one with the default configuration. `shareTestService(overrides)` shares
// one per distinct configuration, for files whose configuration is not about the test itself
// (e.g. generous rate limits).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import { createSecretBox, type SecretBox } from "@/lib/auth/secret-box";
import { openDatabase } from "@/lib/db/client";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import type { ServiceConfig } from "@/lib/service/context";
import { createRuntime, TOKEN_TTL_SECONDS, type ServiceRuntime } from "@/lib/runtime/runtime";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef0123456789";

/** One sealing key for every service of a test file, so two instances on one database agree. */
export const TEST_SECRETS_KEY = randomBytes(32);

export interface TestService {
  url: string;
  runtime: ServiceRuntime;
  /** The PostgreSQL database this service uses (to start a second instance on it), if any. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * A database of its own on the TEST_DATABASE_URL server, so that services of tests running at
 * the same time behave like separate deployments: their workers never take each other's jobs.
 */
export async function isolatedPostgres(baseUrl: string, prefix = "pm_test_"): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import("pg");
  const name = `${prefix}${randomBytes(6).toString("hex")}`;
  const run = async (statement: string) => {
    const client = new Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name} template template0`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export interface TestServiceOptions {
  worker?: boolean;
  /** Share this PostgreSQL database. */
  databaseUrl?: string;
  /** Seal secrets with this box instead of one over TEST_SECRETS_KEY. */
  secretBox?: SecretBox;
  /** Keep PGlite on disk in `dataDir/pglite`, as the app does, instead of in memory. */
  pgliteOnDisk?: boolean;
  /** Use this data directory (left in place on close) instead of a fresh temporary one. */
  dataDir?: string;
  /** The worker's idle poll (default 50 ms). */
  pollMs?: number;
  /** A service of its own even with the default configuration (no arguments otherwise share one). */
  fresh?: boolean;
}

/** The shared services of this worker process, by configuration. */
const shared = new Map<string, Promise<TestService>>();

/**
 * Databases of shared services are named after the run (vitest.api-setup.ts sets
 * PM_TEST_RUN_ID and drops them when the run ends: shared services are never closed by a test).
 */
export const SHARED_DATABASE_PREFIX = "pm_test_shared_";

/**
 * The service shared by the test files of this worker that ask for this configuration (none: the
 * default one). Tests on it create their own organisation, credentials and data, and assert only
 * on those. `close()` on it does nothing.
 */
export function shareTestService(overrides: Partial<ServiceConfig> = {}, { worker = false }: { worker?: boolean } = {}): Promise<TestService> {
  const key = JSON.stringify({ overrides, worker });
  let service = shared.get(key);
  if (!service) {
    const run = (process.env.PM_TEST_RUN_ID ?? "").replace(/[^a-z0-9]/g, "").slice(0, 16);
    service = startFreshService(overrides, { worker }, `${SHARED_DATABASE_PREFIX}${run}_`).then((started) => ({ ...started, close: async () => {} }));
    service.catch(() => shared.delete(key));
    shared.set(key, service);
  }
  return service;
}

/**
 * The service for a test file: the shared one when called without arguments, else (or with
 * `{ fresh: true }`) a service of its own with this configuration, on a database of its own.
 */
export function startTestService(overrides: Partial<ServiceConfig> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const { fresh = false, ...rest } = options;
  if (!fresh && Object.keys(overrides).length === 0 && Object.keys(rest).length === 0) return shareTestService();
  return startFreshService(overrides, rest);
}

async function startFreshService(
  overrides: Partial<ServiceConfig>,
  {
    worker = false,
    databaseUrl,
    secretBox = createSecretBox({ current: TEST_SECRETS_KEY }),
    pgliteOnDisk = false,
    dataDir: givenDataDir,
    pollMs = 50,
  }: TestServiceOptions,
  databasePrefix?: string,
): Promise<TestService> {
  // The port must be known before the runtime is built (it is part of the token audience).
  const holder: { runtime?: ServiceRuntime } = {};
  // The service's own listener (its direct reads, then the app), as `npm start` serves it.
  const server = createServer((req, res) => {
    if (holder.runtime) holder.runtime.listener(req, res);
    else res.writeHead(503, { "content-type": "text/plain" }).end("starting");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const postgresServer = process.env.TEST_DATABASE_URL;
  const isolated = postgresServer && !databaseUrl ? await isolatedPostgres(postgresServer, databasePrefix) : undefined;
  const postgresUrl = databaseUrl ?? isolated?.url;
  const dataDir = givenDataDir ?? (await mkdtemp(join(tmpdir(), "pm-test-")));
  // In memory, PGlite starts from a migrated template (a new cluster plus migrations costs seconds).
  const database = postgresUrl
    ? await openDatabase({ kind: "postgres", url: postgresUrl, poolSize: 4 })
    : pgliteOnDisk
      ? await openDatabase({ kind: "pglite", dataDir })
      : await openTemplatePglite();
  const config: ServiceConfig = {
    publicOrigin: url,
    adminToken: ADMIN_TOKEN,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    rateLimit: { perMinute: 60, perHour: 1000, tokenPerMinute: 20, tokenPerMinutePerIp: 1000 },
    dashboardRateLimit: { perMinute: 1200, perHour: 36_000 },
    maxBodyBytes: 64 * 1024,
    trustProxy: false,
    dataDir,
    uploads: { maxFileBytes: 5 * 1024 * 1024, maxPhotos: 5, maxPixels: 40_000_000 },
    cdnUrlTtlSeconds: 3600,
    // Test receivers listen on 127.0.0.1; the SSRF suite turns this off.
    webhooks: { timeoutMs: 2000, allowPrivateTargets: true, retryScale: 0.0005, secretGraceSeconds: 3600 },
    ...overrides,
  };
  const started = await createRuntime({ database, config, secretBox, runWorker: worker, workerOptions: { pollMs } });
  holder.runtime = started;
  return {
    url,
    runtime: started,
    databaseUrl: postgresUrl,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await started.stop();
      await isolated?.drop();
      if (!givenDataDir) await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}
