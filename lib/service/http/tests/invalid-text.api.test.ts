// Text PostgreSQL cannot store: U+0000 (text and jsonb refuse it, SQLSTATE 22021 / 22P05) and
// lone UTF-16 surrogates (not Unicode text; a driver would store them as U+FFFD, silently
// changing what the client sent). Every way text comes in — JSON bodies, path ids, query
// parameters, multipart fields, the token request — answers a 4xx naming the member, never 500.
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { expectProblem } from "./assertions";
import { TestClient, square } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";
import { createZoomer, photo, submitPhotos } from "./photos";

let service: TestService;
let api: TestClient;
let partner: Awaited<ReturnType<TestClient["partner"]>>;
let adminDashboardToken: string;
let missionId: string;
let stderrWrites: MockInstance<typeof process.stderr.write>;
let consoleErrors: MockInstance<typeof console.error>;

const NUL = "\u0000";

beforeAll(async () => {
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  partner = await api.partner();
  const user = await api.createUser(partner.orgId, { email: "admin@invalid-text.test", password: "correct horse battery", role: "admin" });
  adminDashboardToken = (await api.dashboardToken(user.id, partner.orgId)).access_token;
  missionId = (await api.createMission(partner.token)).id;
  // Whatever the service logs, a rejected input must not be logged as a failure (no stack trace).
  stderrWrites = vi.spyOn(process.stderr, "write");
  consoleErrors = vi.spyOn(console, "error");
});
afterAll(async () => {
  stderrWrites.mockRestore();
  consoleErrors.mockRestore();
  await service.close();
});

function loggedErrors(): string {
  const calls: unknown[][] = [...stderrWrites.mock.calls, ...consoleErrors.mock.calls];
  return calls.map((call) => call.map((arg: unknown) => (arg instanceof Error ? `${arg.message}\n${arg.stack ?? ""}` : String(arg))).join(" ")).join("\n");
}

/** Asserts a 422 validation problem with one error at `pointer` (`in` body unless said). */
function expectInvalidText(res: Awaited<ReturnType<TestClient["request"]>>, pointer: string, where: "body" | "path" | "query" = "body") {
  const body = expectProblem(res, 422, "validation_failed");
  expect(body.errors, res.text).toContainEqual(expect.objectContaining({ pointer, in: where, code: "invalid_text" }));
  return body;
}

describe("U+0000 in a JSON body", () => {
  it.each([
    ["mission title", "POST", "/api/v1/missions", () => ({ title: `Ponte${NUL}Vecchio`, bounds: square(), required_images: 1 }), "/title"],
    ["mission description", "POST", "/api/v1/missions", () => ({ title: "t", description: `a${NUL}`, bounds: square(), required_images: 1 }), "/description"],
    ["webhook description", "POST", "/api/v1/webhooks", () => ({ url: "https://93.184.216.34/hook", description: `x${NUL}y` }), "/description"],
  ])("%s → 422 naming the member", async (_what, method, path, body, pointer) => {
    const res = await api.request(method, path, { token: partner.token, body: body() });
    expectInvalidText(res, pointer);
  });

  it("mission title in a PATCH → 422", async () => {
    const res = await api.request("PATCH", `/api/v1/missions/${missionId}`, { token: partner.token, body: { title: `${NUL}` } });
    expectInvalidText(res, "/title");
  });

  it("API client name (dashboard credentials) → 422", async () => {
    const res = await api.request("POST", "/api/v1/clients", { token: adminDashboardToken, body: { name: `a${NUL}b`, scopes: ["missions:read"] } });
    expectInvalidText(res, "/name");
  });

  it("organisation name (operator) → 422", async () => {
    const res = await api.admin("POST", "/orgs", { name: `Acme${NUL}` });
    expectInvalidText(res, "/name");
  });

  it("sign-in email → 422", async () => {
    const res = await api.admin("POST", "/dashboard/sign-in", { email: `a${NUL}@example.com`, password: "x" });
    expectInvalidText(res, "/email");
  });

  it("a nested member is named by its full pointer", async () => {
    const res = await api.request("POST", "/api/v1/webhooks", {
      token: partner.token,
      body: { url: "https://93.184.216.34/hook", events: [`mission.created${NUL}`] },
    });
    // Either check may answer first; both name /events/0.
    const body = expectProblem(res, 422, "validation_failed");
    expect(body.errors?.map((e) => e.pointer)).toContain("/events/0");
  });
});

describe("lone surrogates in a JSON body", () => {
  it.each([
    ["a lone high surrogate", String.raw`"Ponte \ud800 Vecchio"`],
    ["a lone low surrogate", String.raw`"\udfff"`],
    ["a reversed pair", String.raw`"\udc00\ud800"`],
  ])("%s → 422 (not stored as U+FFFD)", async (_what, title) => {
    const rawBody = `{"title":${title},"bounds":${JSON.stringify(square())},"required_images":1}`;
    const res = await api.request("POST", "/api/v1/missions", { token: partner.token, rawBody, headers: { "content-type": "application/json" } });
    expectInvalidText(res, "/title");
  });

  it("a proper pair (an emoji) is text and is kept exactly", async () => {
    const rawBody = `{"title":"Duomo \ud83d\udcf7","bounds":${JSON.stringify(square())},"required_images":1}`;
    const res = await api.request<{ title: string }>("POST", "/api/v1/missions", {
      token: partner.token,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe("Duomo 📷");
  });
});

describe("U+0000 in the URL", () => {
  it.each([
    ["GET", "/api/v1/missions/mission_%00x"],
    ["PATCH", "/api/v1/missions/mission_%00x"],
    ["POST", "/api/v1/missions/mission_%00x/cancel"],
    ["GET", "/api/v1/submissions/sub_%00/images"],
    ["DELETE", "/api/v1/webhooks/wh_%00"],
  ])("%s %s → 422 naming the path parameter", async (method, path) => {
    const res = await api.request(method, path, { token: partner.token, ...(method === "PATCH" ? { body: { title: "x" } } : {}) });
    expectInvalidText(res, "id", "path");
  });

  it("the intake route's mission id (a multipart route) → 422", async () => {
    const zoomer = await createZoomer(api);
    const res = await submitPhotos(api, zoomer.token, "mission_%00x", [{ bytes: await photo() }]);
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", errors: [expect.objectContaining({ pointer: "id", in: "path" })] });
  });

  it("a query parameter → 422 naming it", async () => {
    const res = await api.request("GET", "/api/v1/missions?q=a%00b", { token: partner.token });
    expectInvalidText(res, "q", "query");
  });

  it("an operator path parameter → 422", async () => {
    const res = await api.request("POST", "/api/admin/v1/orgs/org_%00/clients", { token: ADMIN_TOKEN, body: { name: "x", scopes: ["missions:read"] } });
    expectInvalidText(res, "org_id", "path");
  });
});

describe("U+0000 in multipart fields", () => {
  it("a submission note → 422 naming it, nothing stored", async () => {
    const zoomer = await createZoomer(api);
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }], { note: `blurry${NUL}` });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", errors: [expect.objectContaining({ pointer: "note", in: "body", code: "invalid_text" })] });
    const list = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions?status=all`, { token: partner.token });
    expect(list.body.meta.total).toBe(0);
  });

  it("a file name with U+0000 (RFC 5987 filename*) is cleaned, not refused: it is metadata, not something the zoomer typed", async () => {
    const zoomer = await createZoomer(api);
    // A raw NUL in a part header is refused by the multipart parser (400); the extended
    // filename* parameter is percent-encoded, so %00 decodes to U+0000 and reaches us.
    const boundary = "----invalid-text-boundary";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename*=UTF-8''IMG%00_1%ED%A0%80.jpg\r\nContent-Type: image/jpeg\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), await photo(), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const response = await fetch(`${service.url}/api/v1/missions/${missionId}/submissions`, {
      method: "POST",
      headers: { authorization: `Bearer ${zoomer.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const created = (await response.json()) as { id: string };
    expect(response.status, JSON.stringify(created)).toBe(202);
    const images = await api.request<{ data: { original_name: string }[] }>("GET", `/api/v1/submissions/${created.id}/images`, { token: partner.token });
    expect(images.body.data[0]?.original_name).toMatch(/^IMG_1.*\.jpg$/);
    expect(images.body.data[0]?.original_name).not.toContain(NUL);
  });
});

describe("U+0000 in the token request", () => {
  const tokenRequest = (body: string, contentType: string, headers: Record<string, string> = {}) =>
    api.request<{ error: string; error_description: string }>("POST", "/api/v1/auth/token", {
      rawBody: body,
      headers: { "content-type": contentType, ...headers },
    });

  it("client_id in a JSON body → 400 invalid_request naming client_id", async () => {
    const res = await tokenRequest(JSON.stringify({ grant_type: "client_credentials", client_id: `cli_${NUL}`, client_secret: "x" }), "application/json");
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.error_description).toContain("client_id");
  });

  it("client_id in a form body → 400 invalid_request", async () => {
    const res = await tokenRequest("grant_type=client_credentials&client_id=cli_%00&client_secret=x", "application/x-www-form-urlencoded");
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.error_description).toContain("client_id");
  });

  it("scope with a lone surrogate → 400 invalid_request", async () => {
    const res = await tokenRequest(
      String.raw`{"grant_type":"client_credentials","client_id":"cli_x","client_secret":"x","scope":"\ud800"}`,
      "application/json",
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.error_description).toContain("scope");
  });

  it("HTTP Basic credentials with U+0000 → 401 invalid_client", async () => {
    const basic = Buffer.from(`cli_${NUL}:secret`).toString("base64");
    const res = await tokenRequest("grant_type=client_credentials", "application/x-www-form-urlencoded", { authorization: `Basic ${basic}` });
    expect(res.status, res.text).toBe(401);
    expect(res.body.error).toBe("invalid_client");
  });
});

describe("nothing was logged as a server failure", () => {
  it("no stack trace and no internal_error in the log", () => {
    const log = loggedErrors();
    expect(log).not.toMatch(/internal_error|22021|22P05|\n\s+at /);
  });
});
