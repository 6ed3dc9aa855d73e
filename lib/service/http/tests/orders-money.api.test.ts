// Issue 22's money and target defects, each pinned over HTTP on both databases: the quote is a
// write that checks the delivery URL; cloud metadata targets are refused even with private targets
// allowed; confirm never charges an order with no cycle left; an ended order keeps no money for
// work never dispatched; a cancelled order gives its unused photo quota back; an expired order
// stays expired; concurrent confirms charge once.
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { orders, payments } from "@/lib/db/schema";
import type { Order, Quote } from "@/lib/schemas/order";
import { expireOrders } from "@/lib/service/orders/change-order";
import { runCycleInTx } from "@/lib/service/orders/cycles/run-due-cycle";
import type { ChargeRequest } from "@/lib/service/payments/payment-provider";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, manyLocations, orderBody, orderPartner, type OrderPartner } from "./orders-client";

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
    expectProblem(
      await api.request("POST", `${ORDERS}/orders/quote`, { token: await api.token(client, "orders:read"), body: orderBody() }),
      403,
      "insufficient_scope",
    );
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
    expect(pointersOf(expectProblem(await api.request("POST", `${ORDERS}/orders`, { token: partner.apiKey, body }), 422, "unsafe_webhook_url"))).toEqual([
      "/delivery/webhook_url",
    ]);
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

// What the test changes under the service: the database (to stand for time that passed) and the
// payment provider's charge (observed, slowed or cut short — the real test processor still answers).
const db = () => service.runtime.ctx.db;
const processor = () => service.runtime.ctx.payments;
const realCharge = () =>
  Object.getPrototypeOf(processor()).charge.bind(processor()) as (request: ChargeRequest) => ReturnType<ReturnType<typeof processor>["charge"]>;
afterEach(() => {
  // Back to the class's own method.
  delete (processor() as unknown as Record<string, unknown>).charge;
});

/** An order whose confirmation died after the processor took the money (the charge record left processing). */
async function orderChargedThenCrashed(key: string): Promise<Order> {
  const order = await createOrder(api, key);
  const charge = realCharge();
  processor().charge = async (request) => {
    await charge(request);
    throw new Error("the process died after the processor answered");
  };
  expect((await confirm(api, key, order.id)).status).toBe(500);
  delete (processor() as unknown as Record<string, unknown>).charge;
  return order;
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
// Evening event nights, with no time of day: a December evening in Florence has no daylight, and
// an order asking for it is refused at create (issue 22, item 3).
const eventOrder = (dates: string[]) => ({
  requirements: { angles: ["front" as const, "entrance" as const] },
  recurring: { enabled: true, event_nights_only: true, event_dates: dates, time_window: "18:00-21:00" },
});
const getOrder = async (key: string, id: string) => (await api.request<Order>("GET", `${ORDERS}/orders/${id}`, { token: key })).body;

/** An order created while its event date was ahead, whose date has passed since (as a stale order's would). */
async function orderWhoseDatesPassed(key: string): Promise<Order> {
  const order = await createOrder(api, key, eventOrder([day(30)]));
  await db()
    .update(orders)
    .set({ recurring: { ...order.recurring, event_dates: [day(-2)] } })
    .where(eq(orders.id, order.id));
  return order;
}

describe("confirm never charges an order with no cycle left (item 1)", () => {
  it("answers 409 no_cycle_left, charges nothing and leaves the order cancellable", async () => {
    const own = await orderPartner(api);
    const order = await orderWhoseDatesPassed(own.apiKey);
    const res = await confirm(api, own.apiKey, order.id);
    expectProblem(res, 409, "no_cycle_left");
    const after = await getOrder(own.apiKey, order.id);
    expect(after).toMatchObject({ status: "pending_confirmation", amount_charged_cents: 0, amount_refunded_cents: 0, payments: [] });
    const cancelled = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
  });

  it("refunds the charge when the last cycle closes while the card is charged (the order ends with nothing kept)", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, eventOrder([day(30)]));
    const charge = realCharge();
    processor().charge = async (request) => {
      const outcome = await charge(request);
      await db()
        .update(orders)
        .set({ recurring: { ...order.recurring, event_dates: [day(-2)] } })
        .where(eq(orders.id, order.id));
      return outcome;
    };
    const res = await confirm(api, own.apiKey, order.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "ended", amount_charged_cents: order.quote.total_cents, amount_refunded_cents: order.quote.total_cents });
  });

  it("refunds a paid cycle that was missed when the order runs out of cycles", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, eventOrder([day(30)]));
    expect((await confirm(api, own.apiKey, order.id)).body).toMatchObject({ status: "active", amount_charged_cents: order.quote.total_cents });
    // The scheduler runs the (only) cycle after its window closed: missed, and nothing after it.
    const { ctx } = service.runtime;
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
      if (row) await runCycleInTx(tx, ctx, row, row.nextCycleIndex, new Date(Date.now() + 40 * 86_400_000));
    });
    expect(await getOrder(own.apiKey, order.id)).toMatchObject({
      status: "ended",
      amount_charged_cents: order.quote.total_cents,
      amount_refunded_cents: order.quote.total_cents,
    });
  });

  it("lets cancel recover money an ended order still holds for a cycle that never ran", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, eventOrder([day(30)]));
    expect((await confirm(api, own.apiKey, order.id)).body).toMatchObject({ status: "active", amount_charged_cents: order.quote.total_cents });
    // As an older version left such orders: ended, charged, nothing dispatched, nothing refunded.
    await db().update(orders).set({ status: "ended", nextCycleIndex: -1 }).where(eq(orders.id, order.id));
    const res = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "ended", amount_charged_cents: order.quote.total_cents, amount_refunded_cents: order.quote.total_cents });
    expectProblem(await api.request("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey }), 409, "invalid_order_state");
  });
});

describe("a refund gives the quota back for what was not delivered (item 4)", () => {
  it("a cancelled 600-photo order no longer blocks the next one on a 1000-photo plan", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    const body = { requirements: { angles: ["front" as const, "entrance" as const, "overview" as const] }, locations: manyLocations(200) };
    const first = await createOrder(api, own.apiKey, body);
    expect((await confirm(api, own.apiKey, first.id)).body.status).toBe("in_progress");
    const cancelled = await api.request<Order>("POST", `${ORDERS}/orders/${first.id}/cancel`, { token: own.apiKey });
    expect(cancelled.body).toMatchObject({ status: "cancelled", amount_refunded_cents: first.quote.total_cents });

    const quote = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, { token: own.apiKey, body: orderBody(body) });
    expect(quote.body.quota).toMatchObject({ used_this_month: 0, remaining_this_month: 1000 });
    const second = await createOrder(api, own.apiKey, body);
    const res = await confirm(api, own.apiKey, second.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("in_progress");
    const orgs = await api.admin<{ data: { id: string; usage: { photos: number } }[] }>("GET", "/orgs?q=order%20org&per_page=100");
    expect(orgs.body.data.find((o) => o.id === own.orgId)?.usage.photos).toBe(600);
  }, 60_000);
});

describe("confirm: expiry committed, payment outside the lock (item 7)", () => {
  it("an order past its expiry is left expired, then answered 409", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    await db()
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    expectProblem(await confirm(api, own.apiKey, order.id), 409, "order_expired");
    expect(await getOrder(own.apiKey, order.id)).toMatchObject({ status: "expired", amount_charged_cents: 0 });
    expectProblem(await confirm(api, own.apiKey, order.id), 409, "invalid_order_state");
  });

  it("holds no organisation lock while the card is charged: another confirmation of the organisation goes through meanwhile", async () => {
    const own = await orderPartner(api);
    const slow = await createOrder(api, own.apiKey);
    const other = await createOrder(api, own.apiKey);
    const charge = realCharge();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const charging = new Promise<void>((resolve) => (entered = resolve));
    processor().charge = async (request) => {
      if (request.description.includes(slow.id)) {
        entered();
        await gate;
      }
      return charge(request);
    };
    const first = confirm(api, own.apiKey, slow.id);
    await charging;
    try {
      const meanwhile = await Promise.race([
        confirm(api, own.apiKey, other.id),
        new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 5000)),
      ]);
      expect(meanwhile === "blocked" ? "blocked" : meanwhile.body.status).toBe("in_progress");
      // The same order confirmed again while its charge is out: no second charge.
      expectProblem(await confirm(api, own.apiKey, slow.id), 409, "payment_in_progress");
    } finally {
      release();
    }
    expect((await first).body).toMatchObject({ status: "in_progress", amount_charged_cents: slow.quote.total_cents });
    expect((await getOrder(own.apiKey, slow.id)).payments.filter((p) => p.kind === "charge")).toHaveLength(1);
  }, 60_000);

  it("recovers a crash between the charge and the activation without charging twice", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    const charge = realCharge();
    const keys: string[] = [];
    processor().charge = async (request) => {
      keys.push(request.idempotencyKey);
      const outcome = await charge(request);
      if (keys.length === 1) throw new Error("the process died after the processor answered");
      return outcome;
    };
    expect((await confirm(api, own.apiKey, order.id)).status).toBe(500);
    const stranded = await getOrder(own.apiKey, order.id);
    expect(stranded).toMatchObject({ status: "pending_confirmation", amount_charged_cents: 0 });
    expect(stranded.payments.map((p) => p.status)).toEqual(["processing"]);
    // While the record is young it may be a confirmation still talking to the processor.
    expectProblem(await confirm(api, own.apiKey, order.id), 409, "payment_in_progress");
    await db()
      .update(payments)
      .set({ createdAt: sql`now() - interval '5 minutes'` })
      .where(eq(payments.orderId, order.id));
    const resumed = await confirm(api, own.apiKey, order.id);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ status: "in_progress", amount_charged_cents: order.quote.total_cents });
    expect(resumed.body.payments.map((p) => [p.kind, p.status])).toEqual([["charge", "succeeded"]]);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  }, 60_000);

  it("so does the expiry sweep, when nobody comes back after such a crash", async () => {
    const own = await orderPartner(api);
    const order = await orderChargedThenCrashed(own.apiKey);
    await db()
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    await expireOrders(service.runtime.ctx);
    expect(await getOrder(own.apiKey, order.id)).toMatchObject({
      status: "expired",
      amount_charged_cents: order.quote.total_cents,
      amount_refunded_cents: order.quote.total_cents,
    });
  }, 60_000);

  it("a cancel after such a crash gets the money back", async () => {
    const own = await orderPartner(api);
    const order = await orderChargedThenCrashed(own.apiKey);
    const res = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", amount_charged_cents: order.quote.total_cents, amount_refunded_cents: order.quote.total_cents });
    expect(res.body.payments.map((p) => [p.kind, p.status])).toEqual([
      ["charge", "succeeded"],
      ["refund", "succeeded"],
    ]);
  }, 60_000);
});
