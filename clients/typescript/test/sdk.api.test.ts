// The SDK against the running service: token caching and refresh, API keys, preview names,
// paging, typed problems, streamed downloads, and retries — 429 after Retry-After and a lost 503
// response to a POST, replayed by its Idempotency-Key — through a real HTTP proxy that fails the
// way networks and gateways do.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient, square } from "@/lib/service/http/tests/client";
import { startTestService, type TestService } from "@/lib/service/http/tests/harness";
import { orderBody, orderPartner } from "@/lib/service/http/tests/orders-client";
import { photo, waitForDecision } from "@/lib/service/http/tests/photos";
import { OAuthError, PhotoMissions, ProblemError } from "../src/index";

let service: TestService;
let api: TestClient;
let partner: { client_id: string; client_secret: string };
let zoomer: { client_id: string; client_secret: string };
let apiKey: string;

beforeAll(async () => {
  // Tokens live 62 s: with the SDK's 60 s margin, a token is due for refresh 2 s after it is issued.
  service = await startTestService({ tokenTtlSeconds: 62 }, { worker: true });
  api = new TestClient(service);
  const orgId = await api.createOrg();
  partner = await api.createClient(orgId, ["missions:read", "missions:write", "submissions:read", "webhooks:manage", "orders:read", "orders:write"]);
  zoomer = await api.createZoomer();
  apiKey = (await orderPartner(api)).apiKey;
});
afterAll(() => service.close());

/** A fetch that records what the SDK sends, passing every request to the real service. */
function recordingFetch() {
  const calls: { method: string; url: string; headers: Headers }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    calls.push({ method: init?.method ?? "GET", url: String(input), headers: new Headers(init?.headers) });
    return fetch(input, init);
  };
  return { calls, fetchImpl };
}

describe("client credentials", () => {
  it("discovers the token endpoint, caches the token across calls, and refreshes it before it expires", async () => {
    const { calls, fetchImpl } = recordingFetch();
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret, fetch: fetchImpl });
    await client.missions.list();
    await client.missions.list();
    const tokenCalls = () => calls.filter((c) => c.url.endsWith("/api/v1/auth/token"));
    expect(calls.filter((c) => c.url.endsWith("/.well-known/oauth-authorization-server"))).toHaveLength(1);
    expect(tokenCalls()).toHaveLength(1);
    expect(tokenCalls()[0]?.headers.get("authorization")).toMatch(/^Basic /);
    const first = await client.credentials?.token();
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await client.missions.list();
    expect(tokenCalls()).toHaveLength(2);
    expect(await client.credentials?.token()).not.toBe(first);
  });

  it("asks for one token however many calls start at once", async () => {
    const { calls, fetchImpl } = recordingFetch();
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret, fetch: fetchImpl });
    await Promise.all([client.missions.list(), client.missions.list(), client.webhooks.list()]);
    expect(calls.filter((c) => c.url.endsWith("/auth/token"))).toHaveLength(1);
  });

  it("throws the token endpoint's OAuth error for a wrong secret", async () => {
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: "wrong" });
    await expect(client.missions.list()).rejects.toMatchObject({ name: "OAuthError", error: "invalid_client", status: 401 });
    await expect(client.missions.list()).rejects.toBeInstanceOf(OAuthError);
  });
});

describe("missions with the SDK preview's names, paging and problems", () => {
  it("sends requiredImages as required_images and iterates every page", async () => {
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret });
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await client.missions.create({ title: `Paged ${i}`, bounds: square(), requiredImages: i + 1 }));
    expect(created.map((m) => m.required_images)).toEqual([1, 2, 3, 4, 5]);
    const page = await client.missions.list({ per_page: 2, q: "Paged" });
    expect(page.data).toHaveLength(2);
    expect(page.meta.total).toBe(5);
    const { calls, fetchImpl } = recordingFetch();
    const counting = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret, fetch: fetchImpl });
    const seen: string[] = [];
    for await (const mission of counting.missions.iterate({ q: "Paged", per_page: 2 })) seen.push(mission.id);
    expect(seen.sort()).toEqual(created.map((m) => m.id).sort());
    expect(calls.filter((c) => c.url.includes("/api/v1/missions?")).map((c) => new URL(c.url).searchParams.get("page"))).toEqual(["1", "2", "3"]);
  });

  it("throws a typed problem with the pointer of an invalid member", async () => {
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret });
    const error = await client.missions
      .create({
        title: "Bad",
        bounds: {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
        requiredImages: 1,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).toBe(422);
    expect(problem.code).toBeTruthy();
    expect(problem.fieldErrors.map((f) => f.pointer).join(" ")).toMatch(/bounds/);
    expect(problem.requestId).toMatch(/.{8,}/);
    await expect(client.missions.get("mission_doesnotexist")).rejects.toMatchObject({ status: 404, name: "ProblemError" });
  });
});

describe("uploads and streamed downloads", () => {
  it("uploads as a zoomer; streams the original image byte for byte and the mission's ZIP", async () => {
    const client = new PhotoMissions({ baseUrl: service.url, clientId: partner.client_id, clientSecret: partner.client_secret });
    const field = new PhotoMissions({ baseUrl: service.url, clientId: zoomer.client_id, clientSecret: zoomer.client_secret });
    const mission = await client.missions.create({ title: "Downloads", bounds: square(), requiredImages: 1 });
    const bytes = await photo();
    const submission = await field.submissions.create(mission.id, { photos: [{ data: bytes, filename: "x.jpg" }] });
    await waitForDecision(api, await api.token(partner), submission.id);
    const images = await client.submissions.images(submission.id);
    const image = images.data[0];
    if (!image) throw new Error("no image");
    const download = await client.images.download(image.url);
    const hash = createHash("sha256");
    for await (const chunk of download.body) hash.update(chunk);
    expect(hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(download.contentType).toBe("image/jpeg");

    const zip = await client.missions.export(mission.id);
    const reader = zip.body.getReader();
    const first = await reader.read();
    await reader.cancel();
    expect(
      Buffer.from(first.value ?? new Uint8Array())
        .subarray(0, 2)
        .toString("latin1"),
    ).toBe("PK");
  });
});

describe("API keys and retries (through a proxy that fails like a gateway)", () => {
  let proxy: Server;
  let proxyUrl: string;
  /** What the proxy does with the next requests whose path matches. */
  const plan: { match: RegExp; action: "429" | "forward-then-503" }[] = [];
  const seen: { method: string; path: string; idempotencyKey: string | undefined; answered: number }[] = [];

  beforeAll(async () => {
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const path = req.url ?? "/";
      const step = plan.findIndex((p) => p.match.test(path));
      const action = step >= 0 ? plan.splice(step, 1)[0]?.action : undefined;
      const record = (answered: number) =>
        seen.push({ method: req.method ?? "", path, idempotencyKey: req.headers["idempotency-key"] as string | undefined, answered });
      if (action === "429") {
        record(429);
        res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "1" });
        res.end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, code: "rate_limited" }));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host" && name !== "content-length") headers.set(name, value);
      const upstream = await fetch(`${service.url}${path}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (action === "forward-then-503") {
        // The service did the work; the caller never hears of it.
        record(503);
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("upstream timed out");
        return;
      }
      record(upstream.status);
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== "content-encoding" && name !== "transfer-encoding" && name !== "content-length") out[name] = value;
      });
      res.writeHead(upstream.status, out);
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it("waits out Retry-After on a 429 and then succeeds", async () => {
    const client = new PhotoMissions({ baseUrl: proxyUrl, apiKey });
    plan.push({ match: /^\/api\/orders\/v1\/orders\?/, action: "429" });
    const started = Date.now();
    const page = await client.orders.list({ per_page: 5 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(page.meta.page).toBe(1);
    expect(seen.filter((s) => s.path.startsWith("/api/orders/v1/orders?")).map((s) => s.answered)).toEqual([429, 200]);
  });

  it("retries a POST whose response was lost with the same Idempotency-Key: one order, the first response replayed", async () => {
    const client = new PhotoMissions({ baseUrl: proxyUrl, apiKey, retry: { baseDelayMs: 50 } });
    plan.push({ match: /^\/api\/orders\/v1\/orders$/, action: "forward-then-503" });
    const reference = `retry-${Date.now()}`;
    const order = await client.orders.create(orderBody({ client_reference: reference }));
    const posts = seen.filter((s) => s.method === "POST" && s.path === "/api/orders/v1/orders");
    expect(posts.map((p) => p.answered)).toEqual([503, 201]);
    expect(posts[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]?.idempotencyKey).toBe(posts[0]?.idempotencyKey);
    const listed = await new PhotoMissions({ baseUrl: service.url, apiKey }).orders.list({ client_reference: reference });
    expect(listed.data.map((o) => o.id)).toEqual([order.id]);
  });

  it("gives up after maxRetries, throwing the last 429 as a typed problem with its Retry-After", async () => {
    const client = new PhotoMissions({ baseUrl: proxyUrl, apiKey, retry: { maxRetries: 1, baseDelayMs: 10 } });
    plan.push({ match: /^\/api\/orders\/v1\/orders\?/, action: "429" }, { match: /^\/api\/orders\/v1\/orders\?/, action: "429" });
    const error = (await client.orders.list({ per_page: 1 }).catch((e: unknown) => e)) as ProblemError;
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBe(1);
  });

  it("does not repeat a PATCH after a 5xx (it may have been applied; PATCH carries no Idempotency-Key)", async () => {
    const client = new PhotoMissions({ baseUrl: proxyUrl, clientId: partner.client_id, clientSecret: partner.client_secret, retry: { baseDelayMs: 10 } });
    const mission = await client.missions.create({ title: "Patch once", bounds: square(), requiredImages: 1 });
    plan.push({ match: new RegExp(`^/api/v1/missions/${mission.id}$`), action: "forward-then-503" });
    await expect(client.missions.update(mission.id, { requiredImages: 2 })).rejects.toMatchObject({ status: 503 });
    expect(seen.filter((s) => s.method === "PATCH")).toHaveLength(1);
    expect((await client.missions.get(mission.id)).required_images).toBe(2);
  });

  it("an API key reaches the order interface only", async () => {
    const client = new PhotoMissions({ baseUrl: service.url, apiKey });
    expect((await client.orders.list()).meta.page).toBe(1);
    await expect(client.missions.list()).rejects.toMatchObject({ status: 401 });
  });
});
