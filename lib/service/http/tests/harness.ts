// Starts the real service app on a loopback port for API tests: real HTTP, real database
// (in-memory PGlite, or the PostgreSQL named by TEST_DATABASE_URL), nothing mocked.
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
  close(): Promise<void>;
}

export async function startTestService(
  overrides: Partial<ServiceConfig> = {},
  { worker = false }: { worker?: boolean } = {},
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
  const postgresUrl = process.env.TEST_DATABASE_URL;
  const database = await openDatabase(postgresUrl ? { kind: "postgres", url: postgresUrl, poolSize: 4 } : { kind: "pglite", dataDir: null });
  const config: ServiceConfig = {
    publicOrigin: url,
    adminToken: ADMIN_TOKEN,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    rateLimit: { perMinute: 60, perHour: 1000, tokenPerMinute: 20, tokenPerMinutePerIp: 1000 },
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
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await started.stop();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}
