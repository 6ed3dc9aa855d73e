import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { webhookEndpoints } from "@/lib/db/schema";
import { recordEvent } from "@/lib/service/events/record-event";
import { claimDeliveries } from "@/lib/service/webhooks/deliver-webhooks";
import { RETRY_DELAYS_SECONDS } from "@/lib/service/webhooks/retry-schedule";
import { TestClient, square } from "./client";
import { startTestService, type TestService } from "./harness";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";
import { Receiver, verifies, type ReceivedRequest } from "./receiver";
import { pollUntil } from "./poll-until";

const LIMITS = { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } };
const RETRY_SCALE = 0.0005;

let service: TestService;
let api: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  service = await startTestService(
    { ...LIMITS, webhooks: { timeoutMs: 1000, allowPrivateTargets: true, retryScale: RETRY_SCALE, secretGraceSeconds: 3600 } },
    { worker: true },
  );
  api = new TestClient(service);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});
beforeEach(() => receiver.script([]));

async function partnerWithWebhook(events?: string[], path = "/hook") {
  const partner = await api.partner();
  const res = await api.request<{ id: string; secret: string; events: string[] }>("POST", "/api/v1/webhooks", {
    token: partner.token,
    body: { url: `${receiver.url}${path}`, ...(events ? { events } : {}), description: "test receiver" },
  });
  expect(res.status, res.text).toBe(201);
  return { ...partner, webhook: res.body };
}

async function createMission(token: string, requiredImages = 10) {
  const res = await api.request<{ id: string }>("POST", "/api/v1/missions", {
    token,
    body: { title: "Hooked", bounds: square(), required_images: requiredImages },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The official Standard Webhooks verifier, in its default mode unless told: the event, or the error it threw. */
function standardVerify(request: ReceivedRequest, secret: string, options?: { format: "raw" }): unknown {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  try {
    return new Webhook(secret, options).verify(request.raw.toString("utf8"), headers);
  } catch (error) {
    return error;
  }
}

const forPath = (path: string) => receiver.requests.filter((r) => r.path === path);
async function waitForPath(path: string, count: number, event?: string) {
  const deadline = Date.now() + 15_000;
  const matching = () => forPath(path).filter((r) => !event || r.json.event === event);
  while (matching().length < count) {
    if (Date.now() > deadline) throw new Error(`${path}: ${matching().length} of ${count} ${event ?? ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return matching();
}

async function deliveries(token: string, webhookId: string, client: TestClient = api) {
  const res = await client.request<{
    data: {
      id: string;
      event: string;
      status: string;
      attempt_count: number;
      attempts: { attempt: number; status_code: number | null; error: string | null; duration_ms: number; response_snippet: string | null }[];
    }[];
  }>("GET", `/api/v1/webhooks/${webhookId}/deliveries?per_page=100`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe("endpoints", () => {
  it("registers with a secret shown once, lists, gets, changes and deletes", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"]);
    expect(webhook.id).toMatch(/^wh_/);
    // Standard Webhooks: whsec_ + standard base64 of 32 random bytes.
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(webhook.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(webhook.events).toEqual(["mission.created"]);
    const got = await api.request<Record<string, unknown>>("GET", `/api/v1/webhooks/${webhook.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    expect(got.text).not.toContain(webhook.secret);
    const list = await api.request<{ data: { id: string }[] }>("GET", "/api/v1/webhooks", { token });
    expect(list.body.data.map((w) => w.id)).toEqual([webhook.id]);
    const patched = await api.request<{ events: string[]; enabled: boolean }>("PATCH", `/api/v1/webhooks/${webhook.id}`, {
      token,
      body: { events: ["*"], enabled: false },
    });
    expect(patched.body).toMatchObject({ events: ["*"], enabled: false });
    expect((await api.request("DELETE", `/api/v1/webhooks/${webhook.id}`, { token })).status).toBe(204);
    expect((await api.request("GET", `/api/v1/webhooks/${webhook.id}`, { token })).status).toBe(404);
  });

  it("keeps endpoints and delivery logs to their organisation", async () => {
    const { token, webhook } = await partnerWithWebhook(undefined, "/tenancy");
    const test = await api.request<{ id: string }>("POST", `/api/v1/webhooks/${webhook.id}/test`, { token });
    const other = await api.partner();
    for (const [method, path] of [
      ["GET", `/api/v1/webhooks/${webhook.id}`],
      ["PATCH", `/api/v1/webhooks/${webhook.id}`],
      ["DELETE", `/api/v1/webhooks/${webhook.id}`],
      ["POST", `/api/v1/webhooks/${webhook.id}/rotate-secret`],
      ["POST", `/api/v1/webhooks/${webhook.id}/test`],
      ["GET", `/api/v1/webhooks/${webhook.id}/deliveries`],
      ["GET", `/api/v1/webhooks/${webhook.id}/deliveries/${test.body.id}`],
      ["POST", `/api/v1/webhooks/${webhook.id}/deliveries/${test.body.id}/redeliver`],
    ] as const) {
      const res = await api.request<{ code: string }>(method, path, { token: other.token, ...(method === "PATCH" ? { body: { enabled: false } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await api.request<{ data: unknown[] }>("GET", "/api/v1/webhooks", { token: other.token })).body.data).toEqual([]);
    // Org A's events never reach org B's endpoints.
    const otherHook = await api.request<{ id: string }>("POST", "/api/v1/webhooks", { token: other.token, body: { url: `${receiver.url}/other-org` } });
    await createMission(token);
    await waitForPath("/tenancy", 1, "mission.created");
    expect(forPath("/other-org")).toEqual([]);
    expect((await deliveries(other.token, otherHook.body.id)).length).toBe(0);
  });

  it("needs webhooks:manage", async () => {
    const partner = await api.partner(["missions:read"]);
    const res = await api.request<{ code: string }>("GET", "/api/v1/webhooks", { token: partner.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("insufficient_scope");
  });
});

describe("delivery", () => {
  it("signs the raw body: a receiver verifies it with the secret and the documented headers", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/signed");
    const missionId = await createMission(token);
    const [request] = await waitForPath("/signed", 1);
    if (!request) throw new Error("no request");
    expect(verifies(request, webhook.secret)).toBe(true);
    expect(verifies(request, "whsec_wrong")).toBe(false);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-svc-event-id"]).toBe(request.json.id);
    expect(request.headers["x-svc-event"]).toBe("mission.created");
    expect(Number(request.headers["x-svc-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(request.headers["x-svc-attempt"]).toBe("1");
    expect(request.json).toMatchObject({ event: "mission.created", data: { mission: { id: missionId, status: "active" } } });
    expect(Object.keys(request.json).sort()).toEqual(["data", "event", "id", "timestamp"]);
  });

  it("sends submission.received with the spec's data exactly, then submission.approved with image links", async () => {
    const { token, webhook } = await partnerWithWebhook(["submission.received", "submission.approved", "submission.rejected"], "/submissions");
    const missionId = await createMission(token);
    const zoomer = await createZoomer(api);
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed: 501 }) }]);
    const [received] = await waitForPath("/submissions", 1, "submission.received");
    expect(received?.json.data).toEqual({
      submission_id: res.body.id,
      mission_id: missionId,
      zoomer_id: zoomer.id,
      image_count: 1,
      location: { lat: expect.closeTo(43.7705, 4) as number, lng: expect.closeTo(11.2575, 4) as number },
    });
    const [approved] = await waitForPath("/submissions", 1, "submission.approved");
    expect(approved && verifies(approved, webhook.secret)).toBe(true);
    const images = approved?.json.data.images as { url: string; sha256: string }[];
    expect(images).toHaveLength(1);
    const download = await fetch(images[0]?.url ?? "");
    expect(download.status).toBe(200);
  });

  it("sends submission.rejected with its reasons, and mission.completed", async () => {
    const { token } = await partnerWithWebhook(["submission.rejected", "mission.completed"], "/verdicts");
    const missionId = await createMission(token, 1);
    const zoomer = await createZoomer(api);
    const bad = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ blur: 6, seed: 511 }) }]);
    await waitForDecision(api, token, String(bad.body.id));
    await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed: 512 }) }]);
    const [rejected] = await waitForPath("/verdicts", 1, "submission.rejected");
    expect(rejected?.json.data.reasons).toEqual([expect.stringMatching(/blurry/)]);
    const [completed] = await waitForPath("/verdicts", 1, "mission.completed");
    expect(completed?.json.data).toMatchObject({ mission: { id: missionId, status: "completed" } });
  });

  it("retries a failing receiver on the schedule with the same event id and body, then succeeds", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/flaky");
    receiver.script([{ status: 500, body: "boom" }, { status: 503 }, "hang"]);
    await createMission(token);
    const requests = await waitForPath("/flaky", 4);
    expect(new Set(requests.map((r) => r.json.id)).size).toBe(1);
    expect(new Set(requests.map((r) => r.raw.toString("hex"))).size).toBe(1);
    expect(requests.map((r) => r.headers["x-svc-attempt"])).toEqual(["1", "2", "3", "4"]);
    // Gaps follow the (scaled) schedule: at least 90 % of each delay (jitter is ±10 %).
    for (let i = 1; i < 3; i++) {
      const gap = (requests[i]?.at ?? 0) - (requests[i - 1]?.at ?? 0);
      expect(gap).toBeGreaterThanOrEqual((RETRY_DELAYS_SECONDS[i - 1] ?? 0) * 1000 * RETRY_SCALE * 0.9 - 5);
    }
    const [delivery] = await pollUntil(
      () => deliveries(token, webhook.id),
      (d) => d[0]?.status === "succeeded",
    );
    expect(delivery?.attempts.map((a) => a.status_code)).toEqual([500, 503, null, 200]);
    expect(delivery?.attempts[0]?.response_snippet).toBe("boom");
    expect(delivery?.attempts[2]?.error).toMatch(/timed out/);
    const endpoint = await api.request<{ consecutive_failures: number; failing_since: string | null }>("GET", `/api/v1/webhooks/${webhook.id}`, { token });
    expect(endpoint.body).toMatchObject({ consecutive_failures: 0, failing_since: null });
  });

  it("does not follow redirects: a 3xx is a failed attempt and the redirect target gets nothing", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/redirecting");
    receiver.script([{ status: 302, headers: { location: `${receiver.url}/redirect-target` } }]);
    await createMission(token);
    await waitForPath("/redirecting", 2);
    expect(forPath("/redirect-target")).toEqual([]);
    const [delivery] = await pollUntil(
      () => deliveries(token, webhook.id),
      (d) => d[0]?.status === "succeeded",
    );
    expect(delivery?.attempts[0]).toMatchObject({ status_code: 302, error: "redirects are not followed" });
  });

  it("disables the endpoint on 410 Gone and stops retrying", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/gone");
    receiver.script([{ status: 410 }]);
    await createMission(token);
    await waitForPath("/gone", 1);
    const endpoint = await pollUntil(
      () => api.request<{ enabled: boolean; disabled_reason: string | null }>("GET", `/api/v1/webhooks/${webhook.id}`, { token }),
      (r) => r.body.enabled === false,
    );
    expect(endpoint.body.disabled_reason).toMatch(/410/);
    const [delivery] = await deliveries(token, webhook.id);
    expect(delivery?.status).toBe("failed");
    await createMission(token);
    await new Promise((r) => setTimeout(r, 300));
    expect(forPath("/gone")).toHaveLength(1);
  });

  it("disables an endpoint that keeps failing through the whole schedule", async () => {
    // The whole ≈3-day schedule, compressed to a few seconds.
    const fast = await startTestService(
      { ...LIMITS, webhooks: { timeoutMs: 1000, allowPrivateTargets: true, retryScale: 0.00002, secretGraceSeconds: 60 } },
      { worker: true },
    );
    try {
      const fastApi = new TestClient(fast);
      const { token } = await fastApi.partner();
      const hook = await fastApi.request<{ id: string }>("POST", "/api/v1/webhooks", {
        token,
        body: { url: `${receiver.url}/dead`, events: ["mission.created"] },
      });
      receiver.script([], { status: 500 });
      await fastApi.request("POST", "/api/v1/missions", { token, body: { title: "x", bounds: square(), required_images: 1 } });
      const endpoint = await pollUntil(
        () =>
          fastApi.request<{ enabled: boolean; disabled_reason: string | null; consecutive_failures: number }>("GET", `/api/v1/webhooks/${hook.body.id}`, {
            token,
          }),
        (r) => r.body.enabled === false,
        60_000,
      );
      expect(endpoint.body.disabled_reason).toMatch(/kept failing/);
      expect(endpoint.body.consecutive_failures).toBe(RETRY_DELAYS_SECONDS.length + 1);
      const [delivery] = await deliveries(token, hook.body.id, fastApi);
      expect(delivery).toMatchObject({ status: "failed", attempt_count: RETRY_DELAYS_SECONDS.length + 1 });
      expect(forPath("/dead")).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    } finally {
      await fast.close();
    }
    // A second service with its worker starts inside the test: slow on a loaded 2-core machine.
  }, 120_000);

  it("sends a test event, logs the attempt, and redelivers with the same id and body", async () => {
    const { token, webhook } = await partnerWithWebhook(["submission.approved"], "/test-event");
    const queued = await api.request<{ id: string; event: string; status: string }>("POST", `/api/v1/webhooks/${webhook.id}/test`, { token });
    expect(queued.status).toBe(202);
    expect(queued.body.event).toBe("webhook.test");
    const [first] = await waitForPath("/test-event", 1, "webhook.test");
    expect(first && verifies(first, webhook.secret)).toBe(true);
    const delivered = await pollUntil(
      () =>
        api.request<{ status: string; attempts: { status_code: number; duration_ms: number; response_snippet: string }[] }>(
          "GET",
          `/api/v1/webhooks/${webhook.id}/deliveries/${queued.body.id}`,
          { token },
        ),
      (r) => r.body.status === "succeeded",
    );
    expect(delivered.body.attempts[0]).toMatchObject({ status_code: 200, response_snippet: "ok" });
    expect(delivered.body.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    const again = await api.request<{ status: string }>("POST", `/api/v1/webhooks/${webhook.id}/deliveries/${queued.body.id}/redeliver`, { token });
    expect(again.status).toBe(202);
    const [, second] = await waitForPath("/test-event", 2);
    expect(second?.json.id).toBe(first?.json.id);
    expect(second?.raw.equals(first?.raw ?? Buffer.alloc(0))).toBe(true);
  });

  it("settles a success whose answer is not text the database can store (NUL bytes), and logs it without them", async () => {
    const { token, webhook } = await partnerWithWebhook(["submission.approved"], "/binary-answer");
    receiver.script([{ status: 200, body: "ok\u0000bin\u0000", headers: { "content-type": "application/octet-stream" } }]);
    const queued = await api.request<{ id: string }>("POST", `/api/v1/webhooks/${webhook.id}/test`, { token });
    expect(queued.status).toBe(202);
    await waitForPath("/binary-answer", 1, "webhook.test");
    const delivered = await pollUntil(
      () =>
        api.request<{ status: string; attempts: { status_code: number; response_snippet: string }[] }>(
          "GET",
          `/api/v1/webhooks/${webhook.id}/deliveries/${queued.body.id}`,
          { token },
        ),
      (r) => r.body.status === "succeeded",
    );
    expect(delivered.body.attempts).toHaveLength(1);
    expect(delivered.body.attempts[0]).toMatchObject({ status_code: 200, response_snippet: "okbin" });
  });

  it("rotates the secret: the new one signs, the old one keeps signing alongside", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/rotated");
    const rotated = await api.request<{ secret: string; previous_secret_expires_at: string }>("POST", `/api/v1/webhooks/${webhook.id}/rotate-secret`, {
      token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(webhook.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    await createMission(token);
    const [request] = await waitForPath("/rotated", 1);
    if (!request) throw new Error("no request");
    expect(verifies(request, rotated.body.secret)).toBe(true);
    expect(verifies(request, webhook.secret, "x-svc-signature-previous")).toBe(true);
    expect(verifies(request, webhook.secret)).toBe(false);
    // Both secrets sign webhook-signature too: the official library takes either, as shown.
    expect(standardVerify(request, rotated.body.secret)).toMatchObject({ event: "mission.created" });
    expect(standardVerify(request, webhook.secret)).toMatchObject({ event: "mission.created" });
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });
});

describe("Standard Webhooks", () => {
  it("the official standardwebhooks library verifies a delivery in its default mode with the secret exactly as shown", async () => {
    const { token, webhook } = await partnerWithWebhook(["mission.created"], "/standard");
    await createMission(token);
    const [request] = await waitForPath("/standard", 1);
    if (!request) throw new Error("no request");
    expect(standardVerify(request, webhook.secret)).toMatchObject({ id: request.json.id, event: "mission.created" });
    expect(request.headers["webhook-id"]).toBe(request.json.id);
    // Keyed with the decoded bytes, not the characters (the "raw" format is the old way) …
    expect(standardVerify(request, webhook.secret, { format: "raw" })).toBeInstanceOf(Error);
    // … and by this secret only.
    expect(standardVerify(request, `whsec_${randomBytes(32).toString("base64")}`)).toBeInstanceOf(Error);
    // X-SVC-Signature is still the hex HMAC keyed with the secret's characters.
    expect(verifies(request, webhook.secret)).toBe(true);
  });

  it("an endpoint with a secret from before keeps verifying the old way until its secret is rotated, then the standard way", async () => {
    const { orgId, token } = await api.partner();
    // As endpoints were registered before: base64url, no format stored (the column's default, legacy).
    const legacy = `whsec_${randomBytes(32).toString("base64url")}`;
    const id = `wh_legacy_${randomBytes(4).toString("hex")}`;
    await service.runtime.ctx.db
      .insert(webhookEndpoints)
      .values({ id, orgId, url: `${receiver.url}/legacy`, events: ["mission.created"], secret: service.runtime.ctx.secretBox.seal(legacy) });
    await createMission(token);
    const [before] = await waitForPath("/legacy", 1);
    if (!before) throw new Error("no request");
    expect(verifies(before, legacy)).toBe(true);
    expect(standardVerify(before, legacy, { format: "raw" })).toMatchObject({ event: "mission.created" });
    expect(standardVerify(before, legacy)).toBeInstanceOf(Error);

    const rotated = await api.request<{ secret: string }>("POST", `/api/v1/webhooks/${id}/rotate-secret`, { token });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await createMission(token);
    const [, after] = await waitForPath("/legacy", 2);
    if (!after) throw new Error("no request");
    // The new secret, the standard way; the old one still signs alongside, the old way, for the grace period.
    expect(standardVerify(after, rotated.body.secret)).toMatchObject({ event: "mission.created" });
    expect(standardVerify(after, legacy, { format: "raw" })).toMatchObject({ event: "mission.created" });
    expect(verifies(after, rotated.body.secret)).toBe(true);
    expect(verifies(after, legacy, "x-svc-signature-previous")).toBe(true);
    const [row] = await queryRows<{ secret_format: string; previous_secret_format: string }>(
      service.runtime.ctx.db,
      sql`select secret_format, previous_secret_format from webhook_endpoints where id = ${id}`,
    );
    expect(row).toEqual({ secret_format: "standard", previous_secret_format: "legacy" });
  });
});

describe("durability", () => {
  it("writes no event and no delivery for a rolled-back change", async () => {
    const { orgId } = await partnerWithWebhook();
    const count = async () =>
      (await queryRows<{ n: number }>(service.runtime.ctx.db, sql`select count(*)::int as n from events where org_id = ${orgId}`))[0]?.n;
    const before = await count();
    await expect(
      service.runtime.ctx.db.transaction(async (tx) => {
        await recordEvent(tx, { orgId, type: "mission.created", data: { mission: { id: "mission_rolled_back" } } });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await count()).toBe(before);
    const orphans = await queryRows<{ n: number }>(service.runtime.ctx.db, sql`select count(*)::int as n from webhook_deliveries where org_id = ${orgId}`);
    expect(orphans[0]?.n).toBe(0);
  });

  it("an event reaches every subscribed endpoint, however many (one delivery each), and no other", async () => {
    const partner = await api.partner();
    const add = async (events?: string[]) => {
      const res = await api.request<{ id: string }>("POST", "/api/v1/webhooks", {
        token: partner.token,
        body: { url: `${receiver.url}/fanout`, ...(events ? { events } : {}) },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id;
    };
    // Seven subscribed (more than the ids recordEvent makes ahead), one to another event only.
    const subscribed = [
      await add(),
      await add(["mission.created"]),
      await add(),
      await add(),
      await add(["mission.created", "submission.received"]),
      await add(),
      await add(),
    ];
    await add(["submission.received"]);
    const [me] = await queryRows<{ org_id: string }>(service.runtime.ctx.db, sql`select org_id from webhook_endpoints where id = ${subscribed[0] ?? ""}`);
    const orgId = me?.org_id ?? "";
    const recorded = await service.runtime.ctx.db.transaction((tx) => recordEvent(tx, { orgId, type: "mission.created", data: { n: 1 } }));
    const rows = await queryRows<{ id: string; endpoint_id: string; payload: string }>(
      service.runtime.ctx.db,
      sql`select id, endpoint_id, payload from webhook_deliveries where event_id = ${recorded.eventId}`,
    );
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([...subscribed].sort());
    expect([...recorded.deliveryIds].sort()).toEqual(rows.map((r) => r.id).sort());
    expect(new Set(rows.map((r) => r.payload)).size).toBe(1);
    expect(JSON.parse(rows[0]?.payload ?? "{}")).toMatchObject({ id: recorded.eventId, event: "mission.created", data: { n: 1 } });
  });

  it("never hands the same delivery to two workers claiming at once", async () => {
    const { orgId } = await partnerWithWebhook(undefined, "/claims");
    // Pause this process's own worker from picking them up by scheduling them a little ahead.
    const ids: string[] = [];
    await service.runtime.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 12; i++) ids.push(...(await recordEvent(tx, { orgId, type: "mission.created", data: { n: i } })).deliveryIds);
    });
    const claims = await Promise.all([0, 1, 2, 3].map(() => claimDeliveries(service.runtime.ctx, { limit: 5, leaseSeconds: 60 })));
    const claimed = claims
      .flat()
      .map((d) => d.id)
      .filter((id) => ids.includes(id));
    expect(new Set(claimed).size).toBe(claimed.length);
  });
});

describe("SSRF guard", () => {
  let strict: TestService;
  let strictApi: TestClient;
  beforeAll(async () => {
    strict = await startTestService(
      { ...LIMITS, webhooks: { timeoutMs: 1000, allowPrivateTargets: false, retryScale: RETRY_SCALE, secretGraceSeconds: 60 } },
      { worker: true },
    );
    strictApi = new TestClient(strict);
  });
  afterAll(() => strict.close());

  it.each([
    "http://127.0.0.1:9/hook",
    "http://[::1]:9/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.7/hook",
    "http://0x7f000001/hook",
    "http://localhost:9/hook",
    "http://192.168.1.10/hook",
    "ftp://example.com/hook",
  ])("refuses %s at registration", async (url) => {
    const { token } = await strictApi.partner();
    const res = await strictApi.request<{ code: string; errors: { pointer: string }[] }>("POST", "/api/v1/webhooks", { token, body: { url } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unsafe_webhook_url");
    expect(res.body.errors[0]?.pointer).toBe("/url");
  });

  it("re-checks the address at connect time (a name that now resolves somewhere private)", async () => {
    const { token, orgId } = await strictApi.partner();
    // As if registration had seen a public address and DNS changed since: write the row directly.
    const [endpoint] = await strict.runtime.ctx.db
      .insert(webhookEndpoints)
      .values({ id: "wh_rebound", orgId, url: `http://localhost:${new URL(receiver.url).port}/rebound`, events: ["*"], secret: "whsec_x" })
      .returning();
    await strictApi.request("POST", "/api/v1/missions", { token, body: { title: "x", bounds: square(), required_images: 1 } });
    const [delivery] = await pollUntil(
      () => deliveries(token, endpoint?.id ?? "", strictApi),
      (d) => (d[0]?.attempts.length ?? 0) > 0,
    );
    expect(delivery?.attempts[0]?.status_code).toBeNull();
    expect(delivery?.attempts[0]?.error).toMatch(/private or reserved/);
    expect(forPath("/rebound")).toEqual([]);
  });

  it("stops delivering to an IP literal registered while private targets were allowed, once they are not", async () => {
    // Registered on the permissive service: fine then.
    const partner = await api.partner();
    const res = await api.request<{ id: string }>("POST", "/api/v1/webhooks", { token: partner.token, body: { url: `${receiver.url}/literal` } });
    expect(res.status, res.text).toBe(201);
    const { webhooks } = service.runtime.ctx.config;
    webhooks.allowPrivateTargets = false;
    try {
      const test = await api.request("POST", `/api/v1/webhooks/${res.body.id}/test`, { token: partner.token });
      expect(test.status, test.text).toBe(202);
      const [delivery] = await pollUntil(
        () => deliveries(partner.token, res.body.id),
        (d) => (d[0]?.attempts.length ?? 0) > 0,
      );
      expect(delivery?.attempts[0]?.status_code).toBeNull();
      expect(delivery?.attempts[0]?.error).toMatch(/127\.0\.0\.1 is a private or reserved address/);
      expect(forPath("/literal")).toEqual([]);
    } finally {
      webhooks.allowPrivateTargets = true;
    }
  });

  it("refuses a well-known service port at registration, and at delivery for an endpoint that has one", async () => {
    const { token, orgId } = await strictApi.partner();
    const res = await strictApi.request<{ code: string; detail: string }>("POST", "/api/v1/webhooks", {
      token,
      body: { url: "https://93.184.216.34:22/hook" },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unsafe_webhook_url");
    expect(res.body.detail).toMatch(/Port 22/);
    // An endpoint stored before this rule existed.
    await strict.runtime.ctx.db.insert(webhookEndpoints).values({ id: "wh_lowport", orgId, url: "http://127.0.0.1:7/echo", events: ["*"], secret: "whsec_x" });
    const test = await strictApi.request("POST", "/api/v1/webhooks/wh_lowport/test", { token });
    expect(test.status, test.text).toBe(202);
    const [delivery] = await pollUntil(
      () => deliveries(token, "wh_lowport", strictApi),
      (d) => (d[0]?.attempts.length ?? 0) > 0,
    );
    expect(delivery?.attempts[0]?.error).toMatch(/Port 7 is not allowed/);
  });
});
