// Idempotency-Key on the order interface: replays, a reused key with another body, concurrent
// duplicates (exactly one order created, one payment taken), per-organisation keys.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { IDEMPOTENCY_RETENTION_HOURS, pruneIdempotencyKeys } from "@/lib/service/idempotency/idempotency-keys";
import type { Order } from "@/lib/schemas/order";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner } from "./orders-client";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

const post = (key: string, idempotencyKey: string, body = orderBody()) =>
  api.request<Order>("POST", `${ORDERS}/orders`, { token: key, body, headers: { "idempotency-key": idempotencyKey } });

describe("Idempotency-Key", () => {
  it("replays the first response for the same key and body", async () => {
    const { apiKey } = await orderPartner(api);
    const first = await post(apiKey, "key-replay");
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(apiKey, "key-replay");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    const list = await api.request<{ meta: { total: number } }>("GET", `${ORDERS}/orders`, { token: apiKey });
    expect(list.body.meta.total).toBe(1);
  });

  it("answers 422 when the key was used for another request", async () => {
    const { apiKey } = await orderPartner(api);
    expect((await post(apiKey, "key-reused")).status).toBe(201);
    const other = await post(apiKey, "key-reused", orderBody({ client_reference: "another" }));
    const problem = expectProblem(other, 422, "idempotency_key_reused");
    expect(problem.errors?.[0]?.pointer).toBe("Idempotency-Key");
  });

  it("replays a validation error too, and refuses a malformed key", async () => {
    const { apiKey } = await orderPartner(api);
    const bad = orderBody({ category: "weddings" as never });
    expectProblem(await post(apiKey, "key-invalid", bad), 422, "validation_failed");
    const replay = await post(apiKey, "key-invalid", bad);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectProblem(replay, 422, "validation_failed");
    expectProblem(await post(apiKey, "x".repeat(256)), 400, "invalid_idempotency_key");
  });

  it("keeps keys per organisation", async () => {
    const a = await orderPartner(api);
    const b = await orderPartner(api);
    const fromA = await post(a.apiKey, "shared-key");
    const fromB = await post(b.apiKey, "shared-key");
    expect(fromB.status).toBe(201);
    expect(fromB.headers.get("idempotent-replayed")).toBeNull();
    expect(fromB.body.id).not.toBe(fromA.body.id);
  });

  it("creates exactly one order from concurrent duplicates", async () => {
    const { apiKey } = await orderPartner(api);
    const results = await Promise.all(Array.from({ length: 8 }, () => post(apiKey, "key-race")));
    const statuses = results.map((r) => r.status).sort();
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    for (const r of results.filter((r) => r.status === 409)) expectProblem(r, 409, "idempotency_key_in_use");
    const created = results.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    const list = await api.request<{ meta: { total: number } }>("GET", `${ORDERS}/orders`, { token: apiKey });
    expect(list.body.meta.total).toBe(1);
  });

  it("takes one payment from concurrent confirmations with one key", async () => {
    const { apiKey } = await orderPartner(api);
    const order = await createOrder(api, apiKey);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => confirm(api, apiKey, order.id, { payment_method: "card" }, { "idempotency-key": "confirm-race" })),
    );
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    const final = await api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: apiKey });
    expect(final.body.status).toBe("in_progress");
    expect(final.body.payments.filter((p) => p.kind === "charge")).toHaveLength(1);
    expect(final.body.missions.total).toBe(3);
  });

  it("takes one payment from concurrent confirmations without a key (the state machine)", async () => {
    const { apiKey } = await orderPartner(api);
    const order = await createOrder(api, apiKey);
    const results = await Promise.all(Array.from({ length: 4 }, () => confirm(api, apiKey, order.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The others find the order confirmed, or its charge still out (it is taken outside the lock).
    for (const r of results.filter((r) => r.status !== 200)) {
      const { code } = r.body as unknown as { code: string };
      expect(["invalid_order_state", "payment_in_progress"]).toContain(code);
      expectProblem(r, 409, code);
    }
    const final = await api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: apiKey });
    expect(final.body.payments).toHaveLength(1);
  });

  it("keeps a key for its retention: housekeeping drops it after, and the key then runs a new request", async () => {
    const { apiKey } = await orderPartner(api);
    const first = await post(apiKey, "key-retained");
    expect((await post(apiKey, "key-kept")).status).toBe(201);
    const { db } = service.runtime.ctx;
    // The first key's request was made a retention and a minute ago; the second's just now.
    await db.execute(
      sql`update idempotency_keys set created_at = now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS}, mins => 1) where key = 'key-retained'`,
    );
    await pruneIdempotencyKeys(db);
    const left = await queryRows<{ key: string }>(db, sql`select key from idempotency_keys where key in ('key-retained', 'key-kept')`);
    expect(left.map((r) => r.key)).toEqual(["key-kept"]);
    const again = await post(apiKey, "key-retained");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
    expect((await post(apiKey, "key-kept")).headers.get("idempotent-replayed")).toBe("true");
  });
});
