// POST /api/orders/v1/delivery-test against a real local receiver: a signed test event the
// receiver can verify (X-SVC-Signature and Standard Webhooks), the receiver's status answered
// back (2xx, an error status, or a timeout), the SSRF guard, the missing secret, the write scope.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, orderPartner, type OrderPartner } from "./orders-client";
import { Receiver, verifies } from "./receiver";

interface TestResult {
  url: string;
  event_id: string;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_snippet: string | null;
}

let service: TestService;
let api: TestClient;
let receiver: Receiver;
let partner: OrderPartner;
let secret: string;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  receiver = await Receiver.start();
  partner = await orderPartner(api);
  const created = await api.request<{ secret: string }>("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey });
  expect(created.status, created.text).toBe(201);
  secret = created.body.secret;
}, 120_000);
afterAll(async () => {
  await receiver.close();
  await service.close();
});

const sendTest = (url: string, token = partner.apiKey) => api.request<TestResult>("POST", `${ORDERS}/delivery-test`, { token, body: { url } });

describe("POST /delivery-test", () => {
  it("sends one signed test event and answers the receiver's status", async () => {
    receiver.script([{ status: 204 }]);
    const before = receiver.requests.length;
    const res = await sendTest(`${receiver.url}/hooks/orders`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ url: `${receiver.url}/hooks/orders`, ok: true, status_code: 204, error: null });
    expect(res.body.event_id).toMatch(/^evt_/);

    const [request] = receiver.requests.slice(before);
    expect(receiver.requests).toHaveLength(before + 1);
    expect(request?.path).toBe("/hooks/orders");
    if (!request) return;
    // Verifiable as deliveries are: the spec's hex HMAC of the raw body, and Standard Webhooks'.
    expect(verifies(request, secret)).toBe(true);
    expect(verifies(request, "odsec_someone-else")).toBe(false);
    const id = String(request.headers["webhook-id"]);
    const timestamp = String(request.headers["webhook-timestamp"]);
    expect(id).toBe(res.body.event_id);
    // Standard Webhooks: keyed with the bytes the secret's base64 decodes to; their library agrees, in its default mode.
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const standard = createHmac("sha256", key)
      .update(`${id}.${timestamp}.${request.raw.toString("utf8")}`)
      .digest("base64");
    expect(String(request.headers["webhook-signature"]).split(" ")).toContain(`v1,${standard}`);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    expect(new Webhook(secret).verify(request.raw.toString("utf8"), headers)).toMatchObject({ id });
    expect(request.headers["x-svc-event"]).toBe("order.delivery.test");
    expect(JSON.parse(request.raw.toString("utf8"))).toMatchObject({ id, type: "order.delivery.test" });
  });

  it("answers a receiver's error status, and a receiver that never answers, as results, not errors", async () => {
    receiver.script([{ status: 401, body: "bad signature" }]);
    const refused = await sendTest(`${receiver.url}/hooks/orders`);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, status_code: 401, error: null, response_snippet: "bad signature" });

    receiver.script(["hang"]);
    const started = Date.now();
    const silent = await sendTest(`${receiver.url}/hooks/orders`);
    expect(silent.status, silent.text).toBe(200);
    expect(silent.body).toMatchObject({ ok: false, status_code: null });
    expect(silent.body.error).toMatch(/timed out/);
    // The harness's webhook timeout is 2 s; the test never waits longer than that (nor than 5 s).
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it("refuses a URL the delivery guard refuses, and a body without a URL", async () => {
    const wellKnownPort = await sendTest("http://127.0.0.1:22/hooks");
    expect(pointersOf(expectProblem(wellKnownPort, 422, "unsafe_webhook_url"))).toEqual(["/url"]);
    const notHttp = await sendTest("ftp://partner.example/hooks");
    expect(pointersOf(expectProblem(notHttp, 422, "unsafe_webhook_url"))).toEqual(["/url"]);
    const empty = await api.request("POST", `${ORDERS}/delivery-test`, { token: partner.apiKey, body: {} });
    expect(pointersOf(expectProblem(empty, 422, "validation_failed"))).toEqual(["/url"]);
  });

  it("needs the organisation's delivery secret, and orders:write", async () => {
    const noSecret = await orderPartner(api);
    const before = receiver.requests.length;
    const missing = await sendTest(`${receiver.url}/hooks/orders`, noSecret.apiKey);
    expect(pointersOf(expectProblem(missing, 409, "delivery_secret_missing"))).toEqual(["/url"]);
    const readOnly = await orderPartner(api, { access: "read_only" });
    expectProblem(await sendTest(`${receiver.url}/hooks/orders`, readOnly.apiKey), 403, "insufficient_scope");
    expect(receiver.requests).toHaveLength(before);
  });
});
