// JSON bodies nested deeper than MAX_JSON_DEPTH are refused with a 400 before anything parses or
// walks them: 3,000 levels (about 18 kB) overflowed the stack of the recursive checks with a 500 on
// every JSON route — a mission, a quote, a draft, the dashboard's sign-in, the token endpoint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../json-depth";
import { expectProblem } from "./assertions";
import { TestClient, square } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";
import { ORDERS, createOrder, orderBody, orderPartner } from "./orders-client";

let service: TestService;
let api: TestClient;
let token: string;
let apiKey: string;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  ({ token } = await api.partner());
  ({ apiKey } = await orderPartner(api));
});
afterAll(() => service.close());

/** A JSON object with a member nested `depth` levels deep (arrays in arrays). */
const deepBody = (base: Record<string, unknown>, depth: number) =>
  `${JSON.stringify(base).slice(0, -1)},"deep":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
const json = { "content-type": "application/json" };

describe("deeply nested JSON bodies", () => {
  it("3,000 levels → 400 json_too_deep on missions, quotes, drafts, order cancels and the dashboard's sign-in", async () => {
    const order = await createOrder(api, apiKey);
    const calls: [string, string, string | undefined][] = [
      ["POST", "/api/v1/missions", token],
      ["PATCH", `/api/v1/missions/${(await api.createMission(token)).id}`, token],
      ["POST", `${ORDERS}/orders/quote`, apiKey],
      ["POST", `${ORDERS}/orders`, apiKey],
      ["POST", `${ORDERS}/drafts`, apiKey],
      ["POST", `${ORDERS}/orders/${order.id}/cancel`, apiKey],
      ["POST", "/api/admin/v1/dashboard/sign-in", ADMIN_TOKEN],
    ];
    const body = deepBody({ title: "Deep", bounds: square(), required_images: 1 }, 3000);
    expect(body.length).toBeLessThan(20_000);
    for (const [method, path, bearer] of calls) {
      const res = await api.request(method, path, { token: bearer, rawBody: body, headers: { ...json, "idempotency-key": `deep-${method}-${path}` } });
      const problem = expectProblem(res, 400, "json_too_deep");
      expect(problem.detail, path).toContain(`${MAX_JSON_DEPTH} levels`);
    }
  });

  it("the token endpoint answers in OAuth's shape", async () => {
    const res = await api.request("POST", "/api/v1/auth/token", { rawBody: deepBody({ grant_type: "client_credentials" }, 3000), headers: json });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });

  it("a body at the cap is parsed and validated as usual (422 for the unknown member)", async () => {
    const res = await api.request("POST", "/api/v1/missions", {
      token,
      rawBody: deepBody({ title: "Deep", bounds: square(), required_images: 1 }, MAX_JSON_DEPTH - 1),
      headers: json,
    });
    expectProblem(res, 422, "validation_failed");
    const quote = await api.request("POST", `${ORDERS}/orders/quote`, { token: apiKey, body: orderBody(), headers: { "idempotency-key": "deep-control" } });
    expect(quote.status, quote.text).toBe(200);
  });
});
