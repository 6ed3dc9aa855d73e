// Logs of a request that fails inside the database: one JSON line, with the request id the
// response names, the database's error code — and no secret. The failing statements are inserts
// that carry a webhook secret and a client secret's hash as parameters, which a logger printing
// the error object (or its message) would write out.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { setLogSink } from "@/lib/log";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";

let service: TestService;
let api: TestClient;
let partner: Awaited<ReturnType<TestClient["partner"]>>;
const lines: string[] = [];
let restoreSink = () => {};
let consoleErrors: MockInstance<typeof console.error>;

beforeAll(async () => {
  // Its own service: the file adds constraints to tables and captures the process's log.
  service = await startTestService({}, { fresh: true });
  api = new TestClient(service);
  partner = await api.partner();
  // From here on every new webhook endpoint and API client row is refused by the database.
  await service.runtime.ctx.db.execute(sql`alter table webhook_endpoints add constraint test_refuse_rows check (false) not valid`);
  await service.runtime.ctx.db.execute(sql`alter table api_clients add constraint test_refuse_rows check (false) not valid`);
  restoreSink = setLogSink((line) => lines.push(line));
  consoleErrors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterAll(async () => {
  restoreSink();
  consoleErrors.mockRestore();
  await service.close();
});

/** Everything logged so far, from the logger and from anything still writing to the console. */
function allLogs(): string {
  const fromConsole = consoleErrors.mock.calls.map((call: unknown[]) =>
    call.map((arg) => (arg instanceof Error ? `${arg.message} ${JSON.stringify(arg)}` : String(arg))).join(" "),
  );
  return [...lines, ...fromConsole].join("\n");
}

/** Text shaped like what the failing inserts carried: a webhook secret, a sealed value, a SHA-256 hex digest. */
const SECRET_SHAPES = [/whsec_/, /\bv1:[\w-]+:/, /\b[0-9a-f]{64}\b/, /params/i];

describe("a request failing in the database", () => {
  it("creating a webhook: 500 with a request id; the log line names it and holds no secret", async () => {
    const before = lines.length;
    const res = await api.request("POST", "/api/v1/webhooks", { token: partner.token, body: { url: "https://93.184.216.34/hook", description: "logged?" } });
    expectProblem(res, 500, "internal_error");
    const requestId = res.headers.get("x-request-id") ?? "";
    expect(requestId).toMatch(/^[\w.:-]{8,64}$/);
    expect(String((res.body as { detail: string }).detail)).toContain(requestId);

    const logged = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: "error",
      msg: "request failed",
      request_id: requestId,
      method: "POST",
      path: "/api/v1/webhooks",
      error: { name: "QueryError", cause: { code: "23514", table: "webhook_endpoints", constraint: "test_refuse_rows" } },
    });
    for (const shape of SECRET_SHAPES) expect(allLogs()).not.toMatch(shape);
  });

  it("creating an API client (operator): the secret's hash is not logged either", async () => {
    const res = await api.admin("POST", `/orgs/${partner.orgId}/clients`, { name: "logged?", scopes: ["missions:read"] });
    expectProblem(res, 500, "internal_error");
    const last = JSON.parse(lines.at(-1) ?? "{}") as Record<string, unknown>;
    expect(last).toMatchObject({ level: "error", request_id: res.headers.get("x-request-id") });
    for (const shape of SECRET_SHAPES) expect(allLogs()).not.toMatch(shape);
  });

  it("every line is one JSON object with time, level and msg", () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(typeof entry.time).toBe("string");
      expect(["debug", "info", "warn", "error"]).toContain(entry.level);
      expect(typeof entry.msg).toBe("string");
    }
  });

  it("a caller's own well-formed X-Request-Id is kept (so its logs and ours match)", async () => {
    const res = await api.request("GET", "/api/v1/missions", { token: partner.token, headers: { "x-request-id": "caller-trace-0042" } });
    expect(res.headers.get("x-request-id")).toBe("caller-trace-0042");
    const odd = await api.request("GET", "/api/v1/missions", { token: partner.token, headers: { "x-request-id": 'has spaces and "quotes"' } });
    expect(odd.headers.get("x-request-id")).not.toContain(" ");
  });
});
