// Issue 22's money and target defects, each pinned over HTTP on both databases: the quote is a
// write that checks the delivery URL; cloud metadata targets are refused even with private targets
// allowed; confirm never charges an order with no cycle left; an ended order keeps no money for
// work never dispatched; a cancelled order gives its unused photo quota back; an expired order
// stays expired; concurrent confirms charge once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, Quote } from "@/lib/schemas/order";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner, type OrderPartner } from "./orders-client";

let service: TestService;
let api: TestClient;
let partner: OrderPartner;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  partner = await orderPartner(api, { plan: "enterprise" });
});
afterAll(() => service.close());

// The harness allows private targets (its receivers listen on 127.0.0.1), as development does.
const METADATA_URLS = [
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
  "http://0xa9fea9fe/latest/meta-data/",
  "http://100.100.100.200/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
];

describe("POST /orders/quote is a write that checks the delivery URL (item 6)", () => {
  it("refuses a read-only API key and an orders:read token with 403 insufficient_scope", async () => {
    const readOnly = await orderPartner(api, { access: "read_only" });
    expectProblem(await api.request("POST", `${ORDERS}/orders/quote`, { token: readOnly.apiKey, body: orderBody() }), 403, "insufficient_scope");
    const client = await api.createClient(await api.createOrg(), ["orders:read", "orders:write"]);
    expectProblem(await api.request("POST", `${ORDERS}/orders/quote`, { token: await api.token(client, "orders:read"), body: orderBody() }), 403, "insufficient_scope");
    expect((await api.request("POST", `${ORDERS}/orders/quote`, { token: await api.token(client), body: orderBody() })).status).toBe(200);
  });

  it("says so in the OpenAPI document", async () => {
    const doc = await api.request<{ paths: Record<string, { post: { security: Record<string, string[]>[] } }> }>("GET", `${ORDERS}/openapi.json`);
    const scopes = doc.body.paths["/orders/quote"]?.post.security.flatMap((s) => Object.values(s).flat());
    expect(scopes).toContain("orders:write");
    expect(scopes).not.toContain("orders:read");
  });

  it.each(METADATA_URLS)("refuses delivery.webhook_url %s at quote as at create", async (url) => {
    const body = orderBody({ delivery: { webhook_url: url } });
    const quoted = await api.request("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body });
    expect(pointersOf(expectProblem(quoted, 422, "unsafe_webhook_url"))).toEqual(["/delivery/webhook_url"]);
    expect(pointersOf(expectProblem(await api.request("POST", `${ORDERS}/orders`, { token: partner.apiKey, body }), 422, "unsafe_webhook_url"))).toEqual(["/delivery/webhook_url"]);
  });
});

describe("cloud metadata targets are refused even with private targets allowed (item 8)", () => {
  it.each(METADATA_URLS)("refuses the webhook endpoint %s", async (url) => {
    const own = await api.partner();
    expectProblem(await api.request("POST", "/api/v1/webhooks", { token: own.token, body: { url } }), 422, "unsafe_webhook_url");
  });

  it("still accepts a loopback receiver there", async () => {
    const own = await api.partner();
    expect((await api.request("POST", "/api/v1/webhooks", { token: own.token, body: { url: "http://127.0.0.1:4999/hook" } })).status).toBe(201);
  });
});
