// Starts the real service app on a loopback port for API tests: real HTTP, real database
// (in-memory PGlite, or the PostgreSQL named by TEST_DATABASE_URL), nothing mocked.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { openDatabase } from "@/lib/db/client";
import type { ServiceConfig } from "@/lib/service/context";
import { createRuntime, TOKEN_TTL_SECONDS, type ServiceRuntime } from "@/lib/service/runtime";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef0123456789";

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
export async function isolatedPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import("pg");
  const name = `pm_test_${randomBytes(6).toString("hex")}`;
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

export async function startTestService(
  overrides: Partial<ServiceConfig> = {},
  { worker = false, databaseUrl }: { worker?: boolean; /** share this PostgreSQL database */ databaseUrl?: string } = {},
): Promise<TestService> {
  // The port must be known before the runtime is built (it is part of the token audience).
  const holder: { runtime?: ServiceRuntime } = {};
  const server = serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, bindings) => {
      if (!holder.runtime) return new Response("starting", { status: 503 });
      return holder.runtime.app.fetch(request, bindings);
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const postgresServer = process.env.TEST_DATABASE_URL;
  const isolated = postgresServer && !databaseUrl ? await isolatedPostgres(postgresServer) : undefined;
  const postgresUrl = databaseUrl ?? isolated?.url;
  const database = await openDatabase(postgresUrl ? { kind: "postgres", url: postgresUrl, poolSize: 4 } : { kind: "pglite", dataDir: null });
  const config: ServiceConfig = {
    publicOrigin: url,
    adminToken: ADMIN_TOKEN,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    rateLimit: { perMinute: 60, perHour: 1000, tokenPerMinute: 20, tokenPerMinutePerIp: 1000 },
    dashboardRateLimit: { perMinute: 1200, perHour: 36_000 },
    maxBodyBytes: 64 * 1024,
    trustProxy: false,
    dataDir: await mkdtemp(join(tmpdir(), "pm-test-")),
    uploads: { maxFileBytes: 5 * 1024 * 1024, maxPhotos: 5, maxPixels: 40_000_000 },
    cdnUrlTtlSeconds: 3600,
    // Test receivers listen on 127.0.0.1; the SSRF suite turns this off.
    webhooks: { timeoutMs: 2000, allowPrivateTargets: true, retryScale: 0.0005, secretGraceSeconds: 3600 },
    ...overrides,
  };
  const started = await createRuntime({ database, config, runWorker: worker, workerOptions: { pollMs: 50 } });
  holder.runtime = started;
  return {
    url,
    runtime: started,
    databaseUrl: postgresUrl,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await started.stop();
      await isolated?.drop();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}
