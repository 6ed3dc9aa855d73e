// The error contract: every error is RFC 9457 problem+json with a stable code and no internals,
// with the right status for unknown routes, wrong methods, bad bodies and invalid content.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient, square, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";

let service: TestService;
let api: TestClient;
let token: string;
let missionId: string;
/** The body cap the service runs with (the harness sets 64 KiB). */
let maxBodyBytes: number;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  maxBodyBytes = service.runtime.ctx.config.maxBodyBytes;
  ({ token } = await api.partner());
  missionId = (await api.createMission(token)).id;
});
afterAll(() => service.close());

/** A JSON body of about `bytes` bytes (a valid mission plus one long unknown member). */
function jsonOfSize(bytes: number): string {
  const base = { title: "Big", bounds: square(), required_images: 1, padding: "" };
  const overhead = JSON.stringify(base).length;
  return JSON.stringify({ ...base, padding: "x".repeat(Math.max(0, bytes - overhead)) });
}

/**
 * POSTs a body in chunks with `Transfer-Encoding: chunked` and no Content-Length, so the size cap
 * must be enforced on the streamed bytes. fetch cannot be made to do this reliably; node:http can.
 */
function postChunked(path: string, headers: Record<string, string>, chunks: string[]): Promise<ApiResponse<unknown>> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(new URL(path, service.url), { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: toHeaders(res.headers), body, text });
      });
    });
    // The server may answer 413 and close before the whole body is sent; that is the point.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

describe("unknown routes and methods", () => {
  it.each(["/api/v1/nope", "/api/v1/missions/x/y/z", "/api/v1/submissions-typo", "/api/admin/v1/nothing-here"])(
    "GET %s → 404 route_not_found",
    async (path) => {
      const res = await api.request("GET", path, { token });
      const problem = expectProblem(res, 404, "route_not_found");
      expect(problem.instance).toBe(path);
    },
  );

  it.each([
    ["PUT", "/api/v1/missions", ["GET", "POST"]],
    ["DELETE", "/api/v1/missions", ["GET", "POST"]],
    ["DELETE", `/api/v1/missions/mission_x`, ["GET", "PATCH"]],
    ["PUT", `/api/v1/missions/mission_x`, ["GET", "PATCH"]],
    ["GET", `/api/v1/missions/mission_x/cancel`, ["POST"]],
    ["GET", "/api/v1/auth/token", ["POST"]],
  ] as const)("%s %s → 405 with Allow listing %j", async (method, path, allowed) => {
    const res = await api.request(method, path, { token });
    expectProblem(res, 405, "method_not_allowed");
    const allow = (res.headers.get("allow") ?? "").split(",").map((m) => m.trim());
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).not.toContain(method);
  });
});

describe("request bodies", () => {
  it("malformed JSON → 400 malformed_json, on POST and PATCH", async () => {
    const headers = { "content-type": "application/json" };
    expectProblem(await api.request("POST", "/api/v1/missions", { token, rawBody: `{"title": "x",`, headers }), 400, "malformed_json");
    expectProblem(
      await api.request("PATCH", `/api/v1/missions/${missionId}`, { token, rawBody: "{'title': 'single quotes'}", headers }),
      400,
      "malformed_json",
    );
  });

  it("a body over the cap with Content-Length → 413 payload_too_large", async () => {
    const body = jsonOfSize(maxBodyBytes + 4096);
    const res = await api.request("POST", "/api/v1/missions", { token, rawBody: body, headers: { "content-type": "application/json" } });
    expectProblem(res, 413, "payload_too_large");
  });

  it("a chunked body over the cap without Content-Length → 413 payload_too_large", async () => {
    const body = jsonOfSize(maxBodyBytes + 4096);
    const chunks = body.match(/[\s\S]{1,8192}/g) ?? [];
    expect(chunks.length).toBeGreaterThan(8);
    const res = await postChunked("/api/v1/missions", { authorization: `Bearer ${token}`, "content-type": "application/json" }, chunks);
    expectProblem(res, 413, "payload_too_large");
  });

  it("a chunked body under the cap is read and validated (the control)", async () => {
    const body = jsonOfSize(maxBodyBytes - 4096);
    const chunks = body.match(/[\s\S]{1,8192}/g) ?? [];
    const res = await postChunked("/api/v1/missions", { authorization: `Bearer ${token}`, "content-type": "application/json" }, chunks);
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toEqual(["/padding"]);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])("Content-Type %s → 415", async (contentType) => {
    const res = await api.request("POST", "/api/v1/missions", {
      token,
      rawBody: JSON.stringify({ title: "x", bounds: square(), required_images: 1 }),
      headers: { "content-type": contentType },
    });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("no Content-Type at all → 415", async () => {
    const res = await api.request("POST", "/api/v1/missions", { token, rawBody: JSON.stringify({ title: "x", bounds: square(), required_images: 1 }) });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("invalid content → 422 validation_failed with a pointer per problem", async () => {
    const res = await api.request("POST", "/api/v1/missions", { token, body: { title: "", bounds: square(), required_images: "five" } });
    const problem = expectProblem(res, 422, "validation_failed");
    expect(pointersOf(problem).sort()).toEqual(["/required_images", "/title"]);
    for (const e of problem.errors ?? []) {
      expect(e.message.length).toBeGreaterThan(0);
      expect(e.in).toBe("body");
    }
  });

  it('an error about the whole body points at the document root (RFC 6901 pointer "")', async () => {
    const res = await api.request("PATCH", `/api/v1/missions/${missionId}`, { token, body: {} });
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toEqual([""]);
  });

  it("a JSON body that is not an object → 422 pointing at the document root", async () => {
    const res = await api.request("POST", "/api/v1/missions", { token, body: ["title"] });
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toEqual([""]);
  });
});

describe("every response", () => {
  it("GET /api/health answers 200 JSON", async () => {
    const res = await api.request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json\b/);
    expect(res.body).toEqual({ status: "ok", database: process.env.TEST_DATABASE_URL ? "postgres" : "pglite" });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("carries X-Content-Type-Options: nosniff, success or error", async () => {
    const responses = await Promise.all([
      api.request("GET", "/api/v1/missions", { token }),
      api.request("GET", `/api/v1/missions/${missionId}`, { token }),
      api.request("GET", "/api/v1/missions"),
      api.request("GET", "/api/v1/missions/mission_nope", { token }),
      api.request("PUT", "/api/v1/missions", { token }),
      api.request("GET", "/api/v1/nope"),
      api.request("GET", "/api/v1/auth/jwks.json"),
      api.request("GET", "/api/v1/openapi.json"),
      api.request("POST", "/api/v1/auth/token", { body: { grant_type: "client_credentials" } }),
      api.request("POST", "/api/admin/v1/orgs", { body: { name: "x" } }),
    ]);
    for (const res of responses) expect(res.headers.get("x-content-type-options"), `${res.status} ${res.text.slice(0, 80)}`).toBe("nosniff");
  });

  it("never leaks internals in an error body", async () => {
    // A grab bag of requests that reach the deepest error paths: parser, validator, geometry, database lookups.
    const responses = await Promise.all([
      api.request("POST", "/api/v1/missions", { token, rawBody: "\u0000\u0001", headers: { "content-type": "application/json" } }),
      api.request("POST", "/api/v1/missions", {
        token,
        body: { title: "x", bounds: { type: "Polygon", coordinates: [[[1e308, 1e308]]] }, required_images: 1 },
      }),
      api.request("GET", `/api/v1/missions/${"x".repeat(5000)}`, { token }),
      api.request("GET", "/api/v1/missions?created_since=2024-13-45T99:99:99Z", { token }),
      api.request("GET", `/api/v1/missions/${encodeURIComponent("'; drop table missions; --")}`, { token }),
    ]);
    for (const res of responses) {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expect(res.headers.get("content-type") ?? "").toMatch(/^application\/problem\+json\b/);
      expect(res.text).not.toMatch(/\n\s*at |node_modules|\.ts:\d+|\/work\/|drizzle|postgres|pglite|stack/i);
    }
  });
});
