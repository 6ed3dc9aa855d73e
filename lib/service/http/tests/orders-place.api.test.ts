// POST /drafts/{id}/place: the wizard's place-and-pay as one request — one order per draft and one
// charge per attempt however often it is sent, refusals of the draft pointing at its member, and an
// unpaid order answered as a typed outcome rather than an error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "@/lib/schemas/order";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, orderBody, orderPartner, type OrderPartner } from "./orders-client";

interface Placed {
  order: Order;
  created: boolean;
  payment: { status: "paid" } | { status: "not_paid"; code: string; detail: string };
}

let service: TestService;
let api: TestClient;
let partner: OrderPartner;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  partner = await orderPartner(api, { plan: "enterprise" });
});
afterAll(() => service.close());

async function draftOf(key: string, body: Record<string, unknown>): Promise<{ id: string; version: number }> {
  const res = await api.request<{ id: string; version: number }>("POST", `${ORDERS}/drafts`, { token: key, body: { body, step: "review" } });
  expect(res.status).toBe(201);
  return res.body;
}

function place(key: string, draft: { id: string; version: number }, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return api.request<Placed>("POST", `${ORDERS}/drafts/${draft.id}/place`, {
    token: key,
    body: { version: draft.version, payment_method: "card", ...extra },
    headers,
  });
}

/** A one-off order as the wizard saves it: every location has its id. */
function oneOff(): Record<string, unknown> {
  const body = orderBody({ client_reference: `place-${Date.now()}-${Math.random()}`, requirements: { angles: ["front"] } });
  return { ...body, locations: body.locations.map((l, i) => ({ ...l, location_id: l.location_id ?? `loc_${i}` })) };
}

describe("placing a draft", () => {
  it("creates, links and pays the order in one request", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const res = await place(partner.apiKey, draft);
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(true);
    expect(res.body.payment).toEqual({ status: "paid" });
    expect(res.body.order.status).toBe("in_progress");
    expect(res.body.order.payments.filter((p) => p.kind === "charge" && p.status === "succeeded")).toHaveLength(1);
    const linked = await api.request<{ order_id: string | null }>("GET", `${ORDERS}/drafts/${draft.id}`, { token: partner.apiKey });
    expect(linked.body.order_id).toBe(res.body.order.id);
  });

  it("answers the same order, charged once, when placed again or twice at once", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const [a, b] = await Promise.all([place(partner.apiKey, draft), place(partner.apiKey, draft)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.order.id).toBe(b.body.order.id);
    expect([a.body.created, b.body.created].filter(Boolean)).toHaveLength(1);
    const again = await place(partner.apiKey, draft);
    expect(again.body).toMatchObject({ created: false, payment: { status: "paid" } });
    expect(again.body.order.id).toBe(a.body.order.id);
    const charges = again.body.order.payments.filter((p) => p.kind === "charge");
    expect(charges).toHaveLength(1);
    const list = await api.request<{ data: Order[] }>(
      "GET",
      `${ORDERS}/orders?client_reference=${encodeURIComponent(again.body.order.client_reference ?? "")}`,
      { token: partner.apiKey },
    );
    expect(list.body.data).toHaveLength(1);
  });

  it("replays the stored answer for the same Idempotency-Key", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const headers = { "idempotency-key": `place-${draft.id}` };
    const first = await place(partner.apiKey, draft, {}, headers);
    const second = await place(partner.apiKey, draft, {}, headers);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.order.id).toBe(first.body.order.id);
  });

  it("answers a declined card as an unpaid order, and pays it on the next attempt", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const declined = await place(partner.apiKey, draft, { payment_method_id: "pm_card_declined" });
    expect(declined.status).toBe(200);
    expect(declined.body.created).toBe(true);
    expect(declined.body.payment).toMatchObject({ status: "not_paid", code: "payment_failed" });
    expect(declined.body.order.status).toBe("payment_failed");
    const paid = await place(partner.apiKey, draft, { payment_method_id: "pm_card_visa" });
    expect(paid.body).toMatchObject({ created: false, payment: { status: "paid" } });
    expect(paid.body.order.id).toBe(declined.body.order.id);
    expect(paid.body.order.status).toBe("in_progress");
  });

  it("refuses a draft changed since it was reviewed with 412, creating nothing", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const res = await place(partner.apiKey, { id: draft.id, version: draft.version + 1 });
    expectProblem(res, 412, "draft_changed");
    const after = await api.request<{ order_id: string | null }>("GET", `${ORDERS}/drafts/${draft.id}`, { token: partner.apiKey });
    expect(after.body.order_id).toBeNull();
  });

  it("refuses a draft that is not a valid order with 422 pointing at the member", async () => {
    const draft = await draftOf(partner.apiKey, { category: "cultural_exterior", requirements: { angles: ["front"] }, locations: [] });
    const res = await place(partner.apiKey, draft);
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toContain("/locations");
  });

  it("needs orders:write, and another organisation's draft is not found", async () => {
    const draft = await draftOf(partner.apiKey, oneOff());
    const other = await orderPartner(api);
    expectProblem(await place(other.apiKey, draft), 404, "not_found");
    const readOnly = await api.admin<{ api_key: string }>("POST", `/orgs/${partner.orgId}/api-keys`, { name: "reader", access: "read_only" });
    expect((await place(readOnly.body.api_key, draft)).status).toBe(403);
    const after = await api.request<{ order_id: string | null }>("GET", `${ORDERS}/drafts/${draft.id}`, { token: partner.apiKey });
    expect(after.body.order_id).toBeNull();
  });
});

describe("reading orders", () => {
  it("reads a page of orders with the same number of queries whatever its length (no N+1)", async () => {
    const { listOrderRows } = await import("@/lib/service/orders/order-rows");
    const { orderViews } = await import("@/lib/service/orders/order-views");
    const own = await orderPartner(api);
    for (let i = 0; i < 5; i++) await api.request("POST", `${ORDERS}/orders`, { token: own.apiKey, body: orderBody({ client_reference: `n-plus-one-${i}` }) });
    const ctx = service.runtime.ctx;
    const queriesFor = async (perPage: number) => {
      const { rows } = await listOrderRows(ctx.db, own.orgId, { statuses: null, page: 1, perPage });
      let selects = 0;
      const counting = new Proxy(ctx.db, {
        get(target, prop, receiver) {
          if (prop === "select") selects++;
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      const views = await orderViews(ctx, counting, rows);
      return { selects, views: views.length, locations: views.reduce((n, v) => n + v.locations.length, 0) };
    };
    const one = await queriesFor(1);
    const five = await queriesFor(5);
    expect([one.views, five.views]).toEqual([1, 5]);
    expect(five.locations).toBe(15);
    expect(five.selects).toBe(one.selects);
    // Locations, payments, delivery promises and mission counts: one read each.
    expect(five.selects).toBeLessThanOrEqual(4);
  });
});

describe("the price list", () => {
  it("is readable by partners as the operator set it, for the wizard's price notes", async () => {
    const current = await api.admin<Record<string, unknown>>("GET", "/price-list");
    expect(current.status).toBe(200);
    const prices = Object.fromEntries(Object.entries(current.body).filter(([key]) => key !== "updated_at"));
    const changed = { ...prices, time_of_day_surcharge_percent: { ...(prices.time_of_day_surcharge_percent as Record<string, number>), midday: 12 } };
    expect((await api.admin("PUT", "/price-list", changed)).status).toBe(200);
    try {
      const reader = await orderPartner(api, { access: "read_only" });
      const res = await api.request<{ time_of_day_surcharge_percent: { midday: number }; currency: string; updated_at: string }>("GET", `${ORDERS}/prices`, {
        token: reader.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body.time_of_day_surcharge_percent.midday).toBe(12);
      expect(res.body.currency).toMatch(/^[A-Z]{3}$/);
      expect((await api.request("GET", `${ORDERS}/prices`)).status).toBe(401);
    } finally {
      await api.admin("PUT", "/price-list", prices);
    }
  });
});
