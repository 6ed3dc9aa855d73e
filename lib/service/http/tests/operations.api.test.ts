// Readiness and Prometheus metrics of the real app (in-process service, real database).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./harness";
import { TestClient } from "./client";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

describe("readiness and metrics", () => {
  let service: TestService;
  let api: TestClient;

  beforeAll(async () => {
    service = await startTestService({ metricsToken: METRICS_TOKEN }, { worker: true });
    api = new TestClient(service);
  });
  afterAll(async () => {
    await service.close();
  });

  it("reports ready with database, storage, worker and backlog figures", async () => {
    // The worker's first heartbeat is written just after the service starts: until it is there the
    // answer is "degraded" (no live worker yet), then "ready".
    const deadline = Date.now() + 15_000;
    let res = await fetch(`${service.url}/api/ready`);
    let body = (await res.json()) as { status: string; checks: Record<string, Record<string, unknown>> };
    while (body.status !== "ready" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      res = await fetch(`${service.url}/api/ready`);
      body = (await res.json()) as typeof body;
    }
    expect(res.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks.database).toMatchObject({ ok: true });
    expect(typeof body.checks.database?.latency_ms).toBe("number");
    expect(body.checks.storage).toMatchObject({ ok: true, kind: "local" });
    expect(body.checks.workers).toMatchObject({ ok: true, alive: 1 });
    expect(body.checks.backlog).toMatchObject({ ok: true, oldest_due_seconds: 0 });
  });

  it("serves Prometheus metrics only with METRICS_TOKEN: requests by route pattern, queue depth, deliveries, workers", async () => {
    const partner = await api.partner();
    const mission = await api.createMission(partner.token);
    expect((await api.request("GET", `/api/v1/missions/${mission.id}`, { token: partner.token })).status).toBe(200);

    expect((await fetch(`${service.url}/api/metrics`)).status).toBe(401);
    expect((await fetch(`${service.url}/api/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789abcd" } })).status).toBe(401);
    const res = await fetch(`${service.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/missions\/:id",status="200"\} 1\b/);
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/missions",status="201"\} 1\b/);
    expect(text).not.toContain(mission.id); // patterns, never concrete paths
    expect(text).toMatch(/photo_missions_jobs_due\{queue="qa"\} 0/);
    expect(text).toMatch(/photo_missions_webhook_deliveries\{outcome="failed"\} 0/);
    expect(text).toMatch(/photo_missions_workers_alive 1/);
    expect(text).toMatch(/photo_missions_process_cpu_seconds_total/);
  });
});

describe("readiness when a dependency is down", () => {
  it("answers 503 unavailable when the object store cannot be reached, and degraded (200) without a worker", async () => {
    const service = await startTestService({
      storage: {
        kind: "s3",
        bucket: "photos",
        region: "us-east-1",
        endpoint: "http://127.0.0.1:9",
        forcePathStyle: true,
        prefix: "",
        credentials: { accessKeyId: "x", secretAccessKey: "y" },
      },
    });
    try {
      const res = await fetch(`${service.url}/api/ready`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; checks: Record<string, Record<string, unknown>> };
      expect(body.status).toBe("unavailable");
      expect(body.checks.storage).toMatchObject({ ok: false, kind: "s3" });
      expect(body.checks.database).toMatchObject({ ok: true });
      expect(body.checks.workers).toMatchObject({ ok: false, alive: 0 });
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|photos/);
      // Liveness stays up: the process itself is fine.
      expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
    } finally {
      await service.close();
    }
    const local = await startTestService();
    try {
      const res = await fetch(`${local.url}/api/ready`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe("degraded");
    } finally {
      await local.close();
    }
  }, 120_000);

  it("does not serve metrics when no METRICS_TOKEN is configured", async () => {
    const service = await startTestService();
    try {
      const res = await fetch(`${service.url}/api/metrics`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe("metrics_disabled");
    } finally {
      await service.close();
    }
  }, 60_000);
});
