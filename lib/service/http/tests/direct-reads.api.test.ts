// Direct reads (lib/service/http/direct-reads.ts) answer exactly as the app does. Each request is
// sent, byte for byte, to two servers over the same running service: one whose listener tries the
// direct reads first (counting the requests they took) and one that hands every request to the
// Hono app. Status, headers and body must match; only Date differs, and X-RateLimit-Remaining
// by the one request the other server counted.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectReads } from "@/lib/service/http/direct-reads";
import { createServiceMetrics, type ServiceMetrics } from "@/lib/service/metrics/service-metrics";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, createOrder, orderBody, orderPartner } from "./orders-client";
import { createZoomer, photo, submitPhotos } from "./photos";
import { awayFromWindowEnd } from "./rate-windows";

interface Raw {
  status: number;
  /** Lower-case names, in the order sent; repeated names kept. */
  headers: [string, string][];
  body: string;
}

let service: TestService;
let api: TestClient;
let direct: { url: string; taken: number; server: Server };
let viaApp: { url: string; server: Server };
let directMetrics: ServiceMetrics;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  const { ctx, app } = service.runtime;
  directMetrics = createServiceMetrics(ctx.db);
  const tryDirect = createDirectReads(ctx, directMetrics);
  const appOnly = getRequestListener(app.fetch);
  const directServer = createServer((req, res) => {
    if (tryDirect(req, res)) direct.taken += 1;
    else void appOnly(req, res);
  });
  direct = { url: await listen(directServer), taken: 0, server: directServer };
  const appServer = createServer((req, res) => void appOnly(req, res));
  viaApp = { url: await listen(appServer), server: appServer };
});
afterAll(async () => {
  await Promise.all([direct, viaApp].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  await service.close();
});

/** One request with exactly these raw headers (repeated names allowed) and body, over node:http (chunked when no Content-Length is among them). */
function send(base: string, method: string, path: string, headers: [string, string][], body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    // Raw headers as an array are sent as they are (Node adds no Host then).
    const raw = [["Host", url.host], ...headers].flat();
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: raw, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([(res.rawHeaders[i] ?? "").toLowerCase(), res.rawHeaders[i + 1] ?? ""]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

// Remaining differs by the request the other server counted; Retry-After by a second if one ticked
// between the two requests. Both are compared apart; so are a quote's moments (below).
const IGNORED = new Set(["date", "x-ratelimit-remaining", "retry-after", "connection", "keep-alive"]);

/** The headers that must be equal, sorted by name (the order of the fields is not part of HTTP's meaning). */
function comparable(raw: Raw): [string, string][] {
  return raw.headers.filter(([name]) => !IGNORED.has(name)).sort(([a], [b]) => a.localeCompare(b));
}

const header = (raw: Raw, name: string) => raw.headers.find(([n]) => n === name)?.[1];

/**
 * Sends the request to the app first, then to the direct listener, and expects the same answer.
 * Returns the direct answer and whether a direct read took it. With `ownRequestIds`, each server
 * made its request id (the caller's was refused), so those are compared apart.
 */
async function expectSameAnswer(
  method: string,
  path: string,
  headers: [string, string][],
  { ownRequestIds = false, body }: { ownRequestIds?: boolean; body?: string } = {},
): Promise<{ answer: Raw; direct: boolean }> {
  const fromApp = await send(viaApp.url, method, path, headers, body);
  const before = direct.taken;
  const answer = await send(direct.url, method, path, headers, body);
  const compared = (raw: Raw) => (ownRequestIds ? comparable(raw).filter(([name]) => name !== "x-request-id") : comparable(raw));
  expect({ status: answer.status, headers: compared(answer), body: momentsApart(answer.body, fromApp.body) }).toEqual({
    status: fromApp.status,
    headers: compared(fromApp),
    body: fromApp.body,
  });
  if (ownRequestIds) expect(header(fromApp, "x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  const remainingApp = header(fromApp, "x-ratelimit-remaining");
  const remainingDirect = header(answer, "x-ratelimit-remaining");
  if (remainingApp === undefined) expect(remainingDirect).toBeUndefined();
  else if (Number(remainingApp) > 0) expect(Number(remainingDirect)).toBe(Number(remainingApp) - 1);
  else expect(remainingDirect).toBe("0");
  const retryApp = header(fromApp, "retry-after");
  if (retryApp === undefined) expect(header(answer, "retry-after")).toBeUndefined();
  else expect(Math.abs(Number(header(answer, "retry-after")) - Number(retryApp))).toBeLessThanOrEqual(1);
  return { answer, direct: direct.taken > before };
}

/**
 * `body` with each ISO instant replaced by the one at the same place in `reference` when they are
 * less than 5 s apart: a quote is computed at its moment (its delivery estimate, its cycles), the
 * two requests a few milliseconds apart. So is a refusal's "retry after N s" when the two differ by
 * a second (one ticked between the requests, as Retry-After above). Anything else must be equal,
 * byte for byte.
 */
function momentsApart(body: string, reference: string): string {
  const near = (pattern: RegExp, parse: (text: string) => number, within: number) => (text: string) => {
    const theirs = reference.match(pattern) ?? [];
    let i = 0;
    return text.replace(pattern, (ours) => {
      const other = theirs[i++];
      return other !== undefined && Math.abs(parse(ours) - parse(other)) <= within ? other : ours;
    });
  };
  const instants = near(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"/g, (text) => Date.parse(JSON.parse(text) as string), 4_999);
  const retryAfter = near(/retry after \d+ s/g, (text) => Number(/\d+/.exec(text)?.[0]), 1);
  return retryAfter(instants(body));
}

const bearer = (token: string): [string, string] => ["Authorization", `Bearer ${token}`];
const requestId: [string, string] = ["X-Request-Id", "direct-reads-test-0001"];

describe("GET /api/v1/missions/{id}", () => {
  let owner: Awaited<ReturnType<TestClient["partner"]>>;
  let missionId: string;

  beforeAll(async () => {
    owner = await api.partner();
    missionId = (await api.createMission(owner.token, { title: "Direct read" })).id;
  });

  it("answers the organisation's mission directly, as the app does (the row cached or not)", async () => {
    await awayFromWindowEnd(60, 3);
    const first = await expectSameAnswer("GET", `/api/v1/missions/${missionId}`, [bearer(owner.token), requestId]);
    expect(first.direct).toBe(true);
    expect(first.answer.status).toBe(200);
    expect(JSON.parse(first.answer.body)).toMatchObject({ id: missionId, title: "Direct read" });
    expect(header(first.answer, "x-request-id")).toBe("direct-reads-test-0001");
    expect(header(first.answer, "content-type")).toBe("application/json");
    expect(header(first.answer, "cache-control")).toBe("no-store");
    expect(Number(header(first.answer, "content-length"))).toBe(Buffer.byteLength(first.answer.body));

    // A change drops the cached row: the next read goes to the database, then the cache again.
    const patched = await api.request("PATCH", `/api/v1/missions/${missionId}`, { token: owner.token, body: { title: "Direct read, changed" } });
    expect(patched.status).toBe(200);
    const afterChange = await expectSameAnswer("GET", `/api/v1/missions/${missionId}`, [bearer(owner.token), requestId]);
    expect(JSON.parse(afterChange.answer.body)).toMatchObject({ title: "Direct read, changed" });
    // With a query string (the route takes none) and the scheme in lower case.
    expect((await expectSameAnswer("GET", `/api/v1/missions/${missionId}?fields=id`, [["authorization", `bearer ${owner.token}`], requestId])).direct).toBe(
      true,
    );
  });

  it("refuses as the app does: no credential, a bad one, two, the wrong scope, a zoomer, another organisation, an unknown id", async () => {
    await awayFromWindowEnd(60, 3);
    const other = await api.partner();
    const readless = await api.partner(["missions:write"]);
    const zoomer = await api.createZoomer();
    const zoomerToken = await api.token(zoomer);
    const path = `/api/v1/missions/${missionId}`;
    const cases: [string, [string, string][], number, string][] = [
      ["no credential", [requestId], 401, "unauthorized"],
      ["not a bearer credential", [["Authorization", `Basic ${Buffer.from("a:b").toString("base64")}`], requestId], 401, "unauthorized"],
      ["a forged token", [bearer(`${owner.token.slice(0, -4)}AAAA`), requestId], 401, "invalid_token"],
      ["two Authorization headers", [bearer(owner.token), bearer(owner.token), requestId], 401, "unauthorized"],
      ["without missions:read", [bearer(readless.token), requestId], 403, "insufficient_scope"],
      ["a zoomer's token", [bearer(zoomerToken), requestId], 403, "insufficient_scope"],
      ["another organisation's token", [bearer(other.token), requestId], 404, "not_found"],
    ];
    for (const [what, headers, status, code] of cases) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", path, headers);
      expect({ what, status: answer.status, code: (JSON.parse(answer.body) as { code?: string }).code, direct: wasDirect }).toEqual({
        what,
        status,
        code,
        direct: true,
      });
      expect(header(answer, "content-type")).toBe("application/problem+json");
    }
    const unknown = await expectSameAnswer("GET", "/api/v1/missions/mission_doesnotexist000000000000", [bearer(owner.token), requestId]);
    expect([unknown.answer.status, unknown.direct]).toEqual([404, true]);
  });

  it("makes its own request id when the caller's is not a plain token, as the app does", async () => {
    const { answer, direct: wasDirect } = await expectSameAnswer(
      "GET",
      `/api/v1/missions/${missionId}`,
      [bearer(owner.token), ["X-Request-Id", "not a plain token!"]],
      {
        ownRequestIds: true,
      },
    );
    expect(wasDirect).toBe(true);
    expect(header(answer, "x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("leaves to the app what it would have to interpret: HEAD, an encoded id, a trailing slash, a dot segment", async () => {
    const leftToApp: [string, string][] = [
      ["HEAD", `/api/v1/missions/${missionId}`],
      ["GET", `/api/v1/missions/%6d${missionId.slice(1)}`],
      ["GET", `/api/v1/missions/${missionId}/`],
      ["GET", `/api/v1/missions/..`],
      ["GET", `/api/v1/missions/${"x".repeat(101)}`],
      ["POST", `/api/v1/missions/${missionId}`],
    ];
    for (const [method, path] of leftToApp) {
      const { direct: wasDirect } = await expectSameAnswer(method, path, [bearer(owner.token), requestId]);
      expect({ method, path, direct: wasDirect }).toEqual({ method, path, direct: false });
    }
  });

  it("answers 401 once the client is revoked, and 429 with Retry-After once the organisation's minute is spent", async () => {
    await awayFromWindowEnd(60, 5);
    const partner = await api.partner();
    const mission = await api.createMission(partner.token);
    const path = `/api/v1/missions/${mission.id}`;
    // 60 a minute for the organisation (the shared service's settings): spent through the app first.
    for (let remaining = Number.POSITIVE_INFINITY; remaining > 0;) {
      const res = await api.request("GET", path, { token: partner.token });
      expect(res.status).toBe(200);
      remaining = Number(res.headers.get("x-ratelimit-remaining"));
    }
    const limited = await expectSameAnswer("GET", path, [bearer(partner.token), requestId]);
    expect([limited.answer.status, limited.direct]).toEqual([429, true]);
    expect(header(limited.answer, "retry-after")).toMatch(/^\d+$/);

    const revokedPartner = await api.partner();
    const revokedMission = await api.createMission(revokedPartner.token);
    await api.revokeClient(revokedPartner.client.client_id);
    const revoked = await expectSameAnswer("GET", `/api/v1/missions/${revokedMission.id}`, [bearer(revokedPartner.token), requestId]);
    expect([revoked.answer.status, JSON.parse(revoked.answer.body).code, revoked.direct]).toEqual([401, "invalid_token", true]);
  });

  it("counts its requests under the app's own route pattern", async () => {
    expect(service.runtime.app.routes.some((r) => r.method === "GET" && r.path === "/api/v1/missions/:id")).toBe(true);
    const text = await directMetrics.registry.metrics();
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/missions\/:id",status="200"\} [1-9]/);
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/missions\/:id",status="404"\} [1-9]/);
  });
});

describe("GET /api/v1/missions (the unfiltered list)", () => {
  let owner: Awaited<ReturnType<TestClient["partner"]>>;

  beforeAll(async () => {
    owner = await api.partner();
    for (const title of ["First", "Second", "Third"]) await api.createMission(owner.token, { title });
  });

  it("answers a page directly, as the app does: no query, page and per_page, the last page, past the end", async () => {
    await awayFromWindowEnd(60, 3);
    for (const query of ["", "?per_page=2", "?page=2&per_page=2", "?per_page=2&page=1", "?page=5&per_page=2", "?per_page=100"]) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `/api/v1/missions${query}`, [bearer(owner.token), requestId]);
      expect({ query, status: answer.status, direct: wasDirect }).toEqual({ query, status: 200, direct: true });
    }
    const page = JSON.parse((await expectSameAnswer("GET", "/api/v1/missions?page=2&per_page=2", [bearer(owner.token), requestId])).answer.body) as {
      data: { title: string }[];
      meta: unknown;
    };
    expect([page.data.map((m) => m.title), page.meta]).toEqual([["First"], { total: 3, page: 2, per_page: 2 }]);
  });

  it("refuses as the app does: no credential, the wrong scope, a zoomer", async () => {
    const readless = await api.partner(["missions:write"]);
    const zoomerToken = await api.token(await api.createZoomer());
    for (const [headers, status] of [
      [[requestId], 401],
      [[bearer(readless.token), requestId], 403],
      [[bearer(zoomerToken), requestId], 403],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", "/api/v1/missions", [...headers]);
      expect([answer.status, wasDirect]).toEqual([status, true]);
    }
  });

  it("leaves to the app a filter, a value its schema refuses or would have to read, a repeated key, a trailing slash", async () => {
    const leftToApp = [
      "?status=all",
      "?q=First",
      "?per_page=101",
      "?per_page=0",
      "?page=0",
      "?per_page=%32",
      "?per_page=+2",
      "?per_page=2.0",
      "?per_page=",
      "?per_page",
      "?per_page=2&per_page=3",
      "?per_page=2&",
      "?fields=id",
      "/",
    ];
    for (const rest of leftToApp) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `/api/v1/missions${rest}`, [bearer(owner.token), requestId]);
      expect({ rest, direct: wasDirect, answered: answer.status > 0 }).toEqual({ rest, direct: false, answered: true });
    }
  });
});

describe("GET /api/v1/missions/{id}/submissions (JSON, unfiltered)", () => {
  let owner: Awaited<ReturnType<TestClient["partner"]>>;
  let missionId: string;

  beforeAll(async () => {
    owner = await api.partner();
    missionId = (await api.createMission(owner.token, { title: "Direct submissions" })).id;
    const zoomer = await createZoomer(api);
    for (const seed of [1, 2]) expect((await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed }) }])).status).toBe(202);
  });

  it("answers a page directly, as the app does, with Vary: Accept", async () => {
    await awayFromWindowEnd(60, 3);
    for (const [query, accept] of [
      ["", null],
      ["?per_page=1", null],
      ["?page=2&per_page=1", "application/json"],
      ["?per_page=100", "*/*"],
    ] as const) {
      const headers: [string, string][] = [bearer(owner.token), requestId, ...(accept ? [["Accept", accept] as [string, string]] : [])];
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `/api/v1/missions/${missionId}/submissions${query}`, headers);
      expect({ query, status: answer.status, direct: wasDirect, vary: header(answer, "vary") }).toEqual({ query, status: 200, direct: true, vary: "Accept" });
    }
    const page = JSON.parse((await expectSameAnswer("GET", `/api/v1/missions/${missionId}/submissions`, [bearer(owner.token), requestId])).answer.body) as {
      data: { mission_id: string; thumbnail_url: unknown }[];
      meta: unknown;
    };
    expect([page.data.map((s) => s.mission_id), page.meta]).toEqual([[missionId, missionId], { total: 2, page: 1, per_page: 20 }]);
  });

  it("refuses as the app does: another organisation, none, without submissions:read, an unknown mission", async () => {
    const other = await api.partner();
    const readless = await api.partner(["missions:read"]);
    for (const [what, path, headers, status] of [
      ["another organisation's token", `/api/v1/missions/${missionId}/submissions`, [bearer(other.token), requestId], 404],
      ["no credential", `/api/v1/missions/${missionId}/submissions`, [requestId], 401],
      ["without submissions:read", `/api/v1/missions/${missionId}/submissions`, [bearer(readless.token), requestId], 403],
      ["an unknown mission", "/api/v1/missions/mission_doesnotexist000000000000/submissions", [bearer(owner.token), requestId], 404],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", path, [...headers]);
      expect({ what, status: answer.status, direct: wasDirect, vary: header(answer, "vary") }).toEqual({ what, status, direct: true, vary: undefined });
    }
  });

  it("leaves to the app GeoJSON (asked by Accept or format), a filter, a JSON page over 100, a trailing slash", async () => {
    const path = `/api/v1/missions/${missionId}/submissions`;
    for (const [rest, accept] of [
      ["", "application/geo+json"],
      ["", "application/json, application/geo+json;q=0.5"],
      ["?format=geojson", null],
      ["?format=json", null],
      ["?status=received", null],
      ["?per_page=101", null],
      ["?per_page=0", null],
      ["/", null],
    ] as const) {
      const headers: [string, string][] = [bearer(owner.token), requestId, ...(accept ? [["Accept", accept] as [string, string]] : [])];
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${path}${rest}`, headers);
      expect({ rest, accept, direct: wasDirect, answered: answer.status > 0 }).toEqual({ rest, accept, direct: false, answered: true });
    }
  });
});

describe("GET /api/orders/v1/orders/{id}", () => {
  it("answers the organisation's order directly, as the app does; refuses as the app does: another organisation's key or token, none, an unknown key", async () => {
    await awayFromWindowEnd(60, 3);
    const partner = await orderPartner(api, { plan: "business" });
    const order = await createOrder(api, partner.apiKey);
    const oauth = await api.partner(["orders:read"]);
    const other = await orderPartner(api, { plan: "business" });
    const path = `${ORDERS}/orders/${order.id}`;
    const first = await expectSameAnswer("GET", path, [bearer(partner.apiKey), requestId]);
    expect([first.answer.status, first.direct, (JSON.parse(first.answer.body) as { id: string }).id]).toEqual([200, true, order.id]);
    expect(header(first.answer, "x-ratelimit-limit")).toMatch(/^\d+$/);
    for (const [what, headers, status] of [
      ["another organisation's key", [bearer(other.apiKey), requestId], 404],
      ["an OAuth token of another organisation", [bearer(oauth.token), requestId], 404],
      ["no credential", [requestId], 401],
      ["an unknown key", [bearer("pm_live_notakey0000000000000000000000000000"), requestId], 401],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", path, [...headers]);
      expect({ what, status: answer.status, direct: wasDirect }).toEqual({ what, status, direct: true });
    }
    for (const rest of [`${order.id}/`, `%6f${order.id.slice(1)}`, "..", `${order.id}/missions`, `${order.id}/photos/`]) {
      const { direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/orders/${rest}`, [bearer(partner.apiKey), requestId]);
      expect({ rest, direct: wasDirect }).toEqual({ rest, direct: false });
    }
  });
});

describe("GET /api/orders/v1/orders (the unfiltered list) and /orders/{id}/photos", () => {
  let partner: Awaited<ReturnType<typeof orderPartner>>;
  let orderIds: string[];

  beforeAll(async () => {
    partner = await orderPartner(api, { plan: "business" });
    orderIds = [];
    for (const reference of ["first", "second", "third"]) orderIds.push((await createOrder(api, partner.apiKey, { client_reference: reference })).id);
  });

  it("answers a page of orders directly, as the app does, newest first", async () => {
    await awayFromWindowEnd(60, 3);
    for (const query of ["", "?per_page=2", "?page=2&per_page=2", "?page=9&per_page=2"]) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/orders${query}`, [bearer(partner.apiKey), requestId]);
      expect({ query, status: answer.status, direct: wasDirect }).toEqual({ query, status: 200, direct: true });
      expect(header(answer, "x-ratelimit-limit")).toMatch(/^\d+$/);
    }
    const page = JSON.parse((await expectSameAnswer("GET", `${ORDERS}/orders?page=2&per_page=2`, [bearer(partner.apiKey), requestId])).answer.body) as {
      data: { client_reference: string }[];
      meta: unknown;
    };
    expect([page.data.map((o) => o.client_reference), page.meta]).toEqual([["first"], { total: 3, page: 2, per_page: 2 }]);
    for (const rest of ["?status=draft", "?client_reference=first", "?per_page=101", "?page=0", "?per_page=%32", "?per_page=2&per_page=2", "/"]) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/orders${rest}`, [bearer(partner.apiKey), requestId]);
      expect({ rest, direct: wasDirect, answered: answer.status > 0 }).toEqual({ rest, direct: false, answered: true });
    }
  });

  it("answers a page of an order's photos directly, as the app does; refuses as the app does: another organisation, none, an unknown order", async () => {
    await awayFromWindowEnd(60, 3);
    const other = await orderPartner(api, { plan: "business" });
    const orderId = orderIds[0] ?? "";
    for (const query of ["", "?per_page=5", "?page=3&per_page=1"]) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/orders/${orderId}/photos${query}`, [bearer(partner.apiKey), requestId]);
      expect({ query, status: answer.status, direct: wasDirect }).toEqual({ query, status: 200, direct: true });
    }
    for (const [what, path, headers, status] of [
      ["another organisation's key", `${ORDERS}/orders/${orderId}/photos`, [bearer(other.apiKey), requestId], 404],
      ["no credential", `${ORDERS}/orders/${orderId}/photos`, [requestId], 401],
      ["an unknown order", `${ORDERS}/orders/ord_doesnotexist0000000000/photos`, [bearer(partner.apiKey), requestId], 404],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", path, [...headers]);
      expect({ what, status: answer.status, direct: wasDirect }).toEqual({ what, status, direct: true });
    }
    for (const rest of [`${orderId}/photos?location_id=x`, `${orderId}/photos?per_page=0`, `${orderId}/photos/`, `%6f${orderId.slice(1)}/photos`, "/photos"]) {
      const { direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/orders/${rest}`, [bearer(partner.apiKey), requestId]);
      expect({ rest, direct: wasDirect }).toEqual({ rest, direct: false });
    }
    // The ZIP (its exported_at differs between two answers): the app's.
    const before = direct.taken;
    const zip = await send(direct.url, "GET", `${ORDERS}/orders/${orderId}/photos.zip`, [bearer(partner.apiKey), requestId]);
    expect([zip.status, header(zip, "content-type"), direct.taken]).toEqual([200, "application/zip", before]);
  });

  it("counts its requests under the app's own route patterns", async () => {
    const text = await directMetrics.registry.metrics();
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="GET",route="\/api\/orders\/v1\/orders",status="200"\} [1-9]/);
    expect(text).toMatch(
      /photo_missions_http_request_duration_seconds_count\{method="GET",route="\/api\/orders\/v1\/orders\/:id\/photos",status="404"\} [1-9]/,
    );
  });
});

describe("GET /api/orders/v1/prices", () => {
  it("answers an API key or an OAuth token directly, as the app does, with the plan's rate-limit headers or none", async () => {
    await awayFromWindowEnd(60, 3);
    const developer = await orderPartner(api, { plan: "developer" });
    const enterprise = await orderPartner(api, { plan: "enterprise" });
    const readOnly = await orderPartner(api, { plan: "business", access: "read_only" });
    const oauth = await api.partner(["orders:read"]);
    for (const [what, credential] of [
      ["a Developer key", developer.apiKey],
      ["an Enterprise key", enterprise.apiKey],
      ["a read-only key", readOnly.apiKey],
      ["an OAuth token", oauth.token],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/prices`, [bearer(credential), requestId]);
      expect({ what, status: answer.status, direct: wasDirect }).toEqual({ what, status: 200, direct: true });
      expect(JSON.parse(answer.body)).toHaveProperty("updated_at");
    }
  });

  it("refuses as the app does: an unknown key, a token without orders:read, none", async () => {
    const missionsOnly = await api.partner(["missions:read"]);
    for (const [headers, status] of [
      [[bearer("pm_live_notakey0000000000000000000000000000"), requestId], 401],
      [[bearer(missionsOnly.token), requestId], 403],
      [[requestId], 401],
    ] as const) {
      const { answer, direct: wasDirect } = await expectSameAnswer("GET", `${ORDERS}/prices`, [...headers]);
      expect([answer.status, wasDirect]).toEqual([status, true]);
    }
    expect((await expectSameAnswer("GET", `${ORDERS}/prices/`, [requestId])).direct).toBe(false);
  });

  it("sends a changed price list at once", async () => {
    const partner = await orderPartner(api, { plan: "enterprise" });
    const before = JSON.parse((await expectSameAnswer("GET", `${ORDERS}/prices`, [bearer(partner.apiKey), requestId])).answer.body) as Record<string, unknown>;
    const prices = Object.fromEntries(Object.entries(before).filter(([name]) => name !== "updated_at"));
    const changed = await api.admin("PUT", "/price-list", prices);
    expect(changed.status).toBe(200);
    const after = JSON.parse((await expectSameAnswer("GET", `${ORDERS}/prices`, [bearer(partner.apiKey), requestId])).answer.body) as Record<string, unknown>;
    expect(after.updated_at).not.toBe(before.updated_at);
  });
});

describe("POST /api/orders/v1/orders/quote", () => {
  const json = (text: string): [string, string][] => [
    ["Content-Type", "application/json"],
    ["Content-Length", String(Buffer.byteLength(text))],
  ];
  const quote = `${ORDERS}/orders/quote`;
  // Every location named: one without an id is given a new one by each quote.
  const named = (fields: Parameters<typeof orderBody>[0] = {}) =>
    orderBody({ locations: orderBody().locations.map((location, i) => ({ ...location, location_id: location.location_id ?? `loc_named_${i}` })), ...fields });

  it("answers a quote directly, as the app does: Enterprise and Developer keys, an OAuth token, a recurring order", async () => {
    await awayFromWindowEnd(60, 3);
    const enterprise = await orderPartner(api, { plan: "enterprise" });
    const developer = await orderPartner(api, { plan: "developer" });
    const oauth = await api.partner(["orders:write"]);
    const recurring = named({ recurring: { enabled: true, frequency: "weekly", day_of_week: 2 } });
    for (const [what, credential, order] of [
      ["an Enterprise key", enterprise.apiKey, named()],
      ["a Developer key", developer.apiKey, named()],
      ["an OAuth token", oauth.token, named()],
      ["a recurring order", enterprise.apiKey, recurring],
    ] as const) {
      const text = JSON.stringify(order);
      const { answer, direct: wasDirect } = await expectSameAnswer("POST", quote, [bearer(credential), requestId, ...json(text)], { body: text });
      expect({ what, status: answer.status, direct: wasDirect }).toEqual({ what, status: 200, direct: true });
      const body = JSON.parse(answer.body) as { total_cents: number; next_cycles: unknown[] | null };
      expect({ what, total: body.total_cents > 0, cycles: body.next_cycles?.length ?? 0 }).toEqual({ what, total: true, cycles: order === recurring ? 4 : 0 });
    }
  });

  it("refuses as the app does: none, a read-only key, a token without orders:write, bad JSON, too deep, the schema, U+0000, an unsafe webhook", async () => {
    const partner = await orderPartner(api, { plan: "business" });
    const readOnly = await orderPartner(api, { plan: "business", access: "read_only" });
    const readToken = await api.partner(["orders:read"]);
    const valid = JSON.stringify(named());
    for (const [what, credential, text, status] of [
      ["no credential", null, valid, 401],
      ["a read-only key", readOnly.apiKey, valid, 403],
      ["a token without orders:write", readToken.token, valid, 403],
      ["malformed JSON", partner.apiKey, '{"category": ', 400],
      ["an empty body", partner.apiKey, "", 400],
      ["too deep", partner.apiKey, "[".repeat(100) + "]".repeat(100), 400],
      ["a body the schema refuses", partner.apiKey, JSON.stringify({ ...named(), locations: [] }), 422],
      ["U+0000 in a name", partner.apiKey, JSON.stringify(named({ description: "nul \u0000 here" })), 422],
      ["an unsafe webhook", partner.apiKey, JSON.stringify(named({ delivery: { webhook_url: "http://127.0.0.1:9/hook" } })), 422],
    ] as const) {
      const headers = [...(credential ? [bearer(credential)] : []), requestId, ...json(text)];
      const { answer, direct: wasDirect } = await expectSameAnswer("POST", quote, headers, { body: text });
      expect({ what, status: answer.status, direct: wasDirect }).toEqual({ what, status, direct: true });
    }
  });

  it("leaves to the app an Idempotency-Key, another media type, a chunked body, one over the limit, a trailing slash", async () => {
    const partner = await orderPartner(api, { plan: "enterprise" });
    const text = JSON.stringify(named());
    const before = direct.taken;
    const padded = " ".repeat(64 * 1024) + text;
    const cases: [string, [string, string][], string, number][] = [
      [
        "another media type",
        [
          ["Content-Type", "text/plain"],
          ["Content-Length", String(Buffer.byteLength(text))],
        ],
        text,
        415,
      ],
      ["a chunked body", [["Content-Type", "application/json"]], text, 200],
      ["over the limit", json(padded), padded, 413],
    ];
    for (const [what, headers, body, status] of cases) {
      const { answer } = await expectSameAnswer("POST", quote, [bearer(partner.apiKey), requestId, ...headers], { body });
      expect({ what, status: answer.status }).toEqual({ what, status });
    }
    expect((await expectSameAnswer("POST", `${quote}/`, [bearer(partner.apiKey), requestId, ...json(text)], { body: text })).direct).toBe(false);
    // A key is stored and replayed (the app's idempotency middleware): sent once, to the direct listener.
    const keyed = await send(direct.url, "POST", quote, [bearer(partner.apiKey), requestId, ["Idempotency-Key", "direct-reads-quote-1"], ...json(text)], text);
    const replayed = await send(
      direct.url,
      "POST",
      quote,
      [bearer(partner.apiKey), requestId, ["Idempotency-Key", "direct-reads-quote-1"], ...json(text)],
      text,
    );
    expect([keyed.status, replayed.status, header(replayed, "idempotent-replayed"), direct.taken]).toEqual([200, 200, "true", before]);
  });

  it("counts its requests under the app's own route pattern, as a POST", async () => {
    const text = await directMetrics.registry.metrics();
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="POST",route="\/api\/orders\/v1\/orders\/quote",status="200"\} [1-9]/);
    expect(text).toMatch(/photo_missions_http_request_duration_seconds_count\{method="POST",route="\/api\/orders\/v1\/orders\/quote",status="422"\} [1-9]/);
  });
});
