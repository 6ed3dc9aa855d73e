// Recurring orders and order events: the schedule, pause/resume/cancel, the durable scheduler
// (a cycle job run twice or late never doubles a cycle), expiry, and events delivered to the
// order's webhook URL signed with the organisation's order-delivery secret.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { jobs, orderCycles, orders } from "@/lib/db/schema";
import type { Order } from "@/lib/schemas/order";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { Receiver, verifies } from "./receiver";
import { expireOrders } from "@/lib/service/orders/change-order";
import { runOrderCycle } from "@/lib/service/orders/cycles/run-due-cycle";
import { pollUntil } from "./poll-until";

let service: TestService;
let api: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  service = await startTestService({}, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});
beforeEach(() => receiver.script([]));

const getOrder = (key: string, id: string) => api.request<Order>("GET", `${ORDERS}/orders/${id}`, { token: key });
const cycleRows = (orderId: string) => service.runtime.ctx.db.select().from(orderCycles).where(eq(orderCycles.orderId, orderId));

describe("order-delivery secret and events", () => {
  it("is created once, shown once, and required for a delivery URL", async () => {
    const own = await orderPartner(api);
    const missing = await api.request("POST", `${ORDERS}/orders`, {
      token: own.apiKey,
      body: { ...orderBodyWithHook(), locations: orderBodyWithHook().locations },
    });
    expect(pointersOf(expectProblem(missing, 409, "delivery_secret_missing"))).toEqual(["/delivery/webhook_url"]);
    expect((await api.request("GET", `${ORDERS}/delivery-secret`, { token: own.apiKey })).body).toMatchObject({ exists: false });
    const created = await api.request<{ secret: string; exists: boolean }>("POST", `${ORDERS}/delivery-secret`, { token: own.apiKey });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expectProblem(await api.request("POST", `${ORDERS}/delivery-secret`, { token: own.apiKey }), 409, "delivery_secret_exists");
    const info = await api.request("GET", `${ORDERS}/delivery-secret`, { token: own.apiKey });
    expect(info.body).toMatchObject({ exists: true });
    expect(info.text).not.toContain(created.body.secret);
  });

  it("delivers order events to the delivery URL, signed, with a log and redelivery; rotation signs with both", async () => {
    const own = await orderPartner(api);
    const { body: secret } = await api.request<{ secret: string }>("POST", `${ORDERS}/delivery-secret`, { token: own.apiKey });
    const order = await createOrder(api, own.apiKey, { delivery: { webhook_url: `${receiver.url}/orders-hook` } });
    await confirm(api, own.apiKey, order.id);
    const assigned = await receiver.waitFor(3, "order.mission.assigned");
    const [confirmed] = await receiver.waitFor(1, "order.confirmed");
    if (!confirmed) throw new Error("no order.confirmed");
    for (const request of [confirmed, ...assigned]) {
      expect(request.path).toBe("/orders-hook");
      expect(verifies(request, secret.secret)).toBe(true);
      expect(request.json.data.order_id).toBe(order.id);
    }
    expect(confirmed.json.data).toMatchObject({ amount_cents: 2400, currency: "EUR" });
    expect(assigned.map((r) => String(r.json.data.mission_id))).toEqual(expect.arrayContaining([expect.stringMatching(/^mis_/)]));
    // mission.created of the dispatched missions goes to registered endpoints only, not here.
    expect(receiver.of("mission.created").filter((r) => r.path === "/orders-hook")).toEqual([]);

    const log = await pollUntil(
      () =>
        api.request<{ data: { id: string; event: string; status: string; attempts: unknown[] }[] }>("GET", `${ORDERS}/orders/${order.id}/deliveries`, {
          token: own.apiKey,
        }),
      (res) => res.body.data.length === 4 && res.body.data.every((d) => d.status === "succeeded"),
    );
    const first = log.body.data.find((d) => d.event === "order.confirmed");
    const rotated = await api.request<{ secret: string }>("POST", `${ORDERS}/delivery-secret/rotate`, { token: own.apiKey });
    expect(rotated.body.secret).not.toBe(secret.secret);
    const again = await api.request<{ status: string }>("POST", `${ORDERS}/orders/${order.id}/deliveries/${first?.id}/redeliver`, { token: own.apiKey });
    expect(again.status, again.text).toBe(200);
    const redelivered = await receiver.waitFor(2, "order.confirmed");
    const last = redelivered[1];
    if (!last) throw new Error("no redelivery");
    expect(last.json.id).toBe(confirmed.json.id);
    expect(verifies(last, rotated.body.secret)).toBe(true);
    expect(verifies(last, secret.secret, "x-svc-signature-previous")).toBe(true);
  });

  it("sends order events to registered endpoints that subscribe to them", async () => {
    const own = await orderPartner(api);
    const client = await api.createClient(own.orgId, ["webhooks:manage"]);
    const hook = await api.request("POST", "/api/v1/webhooks", {
      token: await api.token(client),
      body: { url: `${receiver.url}/registered`, events: ["order.confirmed", "order.cancelled"] },
    });
    expect(hook.status, hook.text).toBe(201);
    const order = await createOrder(api, own.apiKey);
    await confirm(api, own.apiKey, order.id);
    await api.request("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey });
    await pollUntil(
      async () => receiver.requests.filter((r) => r.path === "/registered").map((r) => r.json.event),
      (events) => events.length >= 2,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.filter((r) => r.path === "/registered").map((r) => r.json.event)).toEqual(["order.confirmed", "order.cancelled"]);
  });
});

function orderBodyWithHook() {
  return {
    category: "cultural_exterior",
    requirements: { angles: ["front"] },
    locations: [{ name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } }],
    delivery: { webhook_url: `${receiver.url}/x` },
  };
}

describe("recurring orders", () => {
  it("schedules a weekly order on Fridays in local time, pauses, resumes and ends on cancel with a refund", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, { recurring: { enabled: true, frequency: "weekly", day_of_week: 5, time_window: "18:00-21:00" } });
    expect(order.quote).toMatchObject({ billing: "per_cycle", discount: { percent: 15 }, total_cents: 2040 });
    const confirmed = await confirm(api, own.apiKey, order.id);
    expect(confirmed.body.status).toBe("active");
    expect(confirmed.body.payments).toMatchObject([{ kind: "charge", status: "succeeded", amount_cents: 2040 }]);
    expect(confirmed.body.next_cycle).toEqual({ index: expect.any(Number), local_date: expect.any(String), dispatch_at: expect.any(String) });

    const schedule = await api.request<{
      description: string;
      cycles: {
        index: number;
        local_date: string;
        status: string;
        windows: { time_zone: string; local_window: string; starts_at: string; location_ids: string[] }[];
      }[];
    }>("GET", `${ORDERS}/orders/${order.id}/schedule?count=3`, { token: own.apiKey });
    expect(schedule.status, schedule.text).toBe(200);
    expect(schedule.body.description).toBe("Every Friday, 18:00–21:00 local time");
    expect(schedule.body.cycles).toHaveLength(3);
    for (const cycle of schedule.body.cycles) {
      expect(new Date(`${cycle.local_date}T12:00:00Z`).getUTCDay()).toBe(5);
      const window = cycle.windows[0];
      expect(window?.time_zone).toBe("Europe/Rome");
      expect(window?.local_window).toBe("18:00-21:00");
      expect(window?.location_ids).toHaveLength(3);
      // 18:00 in Rome is 17:00Z (winter) or 16:00Z (summer).
      expect(["16:00", "17:00"]).toContain(window?.starts_at.slice(11, 16));
    }
    const queued = await service.runtime.ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, "orders"), sql`${jobs.payload}->>'order_id' = ${order.id}`));
    expect(queued.length).toBeGreaterThanOrEqual(1);

    expect((await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/pause`, { token: own.apiKey })).body.status).toBe("paused");
    expectProblem(await api.request("POST", `${ORDERS}/orders/${order.id}/pause`, { token: own.apiKey }), 409, "invalid_order_state");
    expect((await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/resume`, { token: own.apiKey })).body.status).toBe("active");
    const cancelled = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey });
    expect(cancelled.body).toMatchObject({ status: "ended", amount_refunded_cents: 2040, next_cycle: null });
  });

  it("dispatches due cycles once each, however often or late the scheduler runs", async () => {
    const own = await orderPartner(api);
    // No time of day, so today's cycle is open whatever the hour the test runs at.
    const order = await createOrder(api, own.apiKey, { requirements: { angles: ["front", "entrance"] }, recurring: { enabled: true, frequency: "daily" } });
    const confirmed = await confirm(api, own.apiKey, order.id);
    expect(confirmed.body.status).toBe("active");
    // Today's cycle is dispatched at confirmation; tomorrow's is due 24 h before it starts, i.e. now.
    const settled = await pollUntil(
      () => getOrder(own.apiKey, order.id),
      (res) => res.body.missions.total === 6,
    );
    expect(settled.body.payments.filter((p) => p.kind === "charge" && p.status === "succeeded")).toHaveLength(2);
    const rows = await cycleRows(order.id);
    expect(rows.map((r) => r.status)).toEqual(["dispatched", "dispatched"]);

    // A duplicate or late job for a cycle already run changes nothing.
    for (const row of rows) await runOrderCycle(service.runtime.ctx, order.id, row.index);
    await Promise.all(rows.map((row) => runOrderCycle(service.runtime.ctx, order.id, row.index)));
    const after = await getOrder(own.apiKey, order.id);
    expect(after.body.missions.total).toBe(6);
    expect(after.body.payments).toHaveLength(2);
    expect(await cycleRows(order.id)).toHaveLength(2);
    expect(after.body.next_cycle?.index).toBe(Math.max(...rows.map((r) => r.index)) + 1);

    // The next cycle's job, run early (as after a restart that found it due), runs exactly once.
    const next = after.body.next_cycle?.index ?? -1;
    await Promise.all([runOrderCycle(service.runtime.ctx, order.id, next), runOrderCycle(service.runtime.ctx, order.id, next)]);
    expect((await getOrder(own.apiKey, order.id)).body.missions.total).toBe(9);
    expect(await cycleRows(order.id)).toHaveLength(3);
  });

  it("skips cycles that come due while paused, with an event", async () => {
    const own = await orderPartner(api);
    await api.request("POST", `${ORDERS}/delivery-secret`, { token: own.apiKey });
    // No time of day, so today's cycle is open whatever the hour the test runs at.
    const order = await createOrder(api, own.apiKey, {
      requirements: { angles: ["front", "entrance"] },
      recurring: { enabled: true, frequency: "daily" },
      delivery: { webhook_url: `${receiver.url}/paused` },
    });
    await confirm(api, own.apiKey, order.id);
    // Today's and tomorrow's cycles are dispatched at confirmation. The order's representation reads
    // its row and its missions one after the other: on PostgreSQL it could show the six missions
    // with the row still saying tomorrow's cycle was next (CI failure at 57f4428), so this waits
    // until the next cycle is the one after the last dispatched.
    const before = await pollUntil(
      async () => ({ order: await getOrder(own.apiKey, order.id), rows: await cycleRows(order.id) }),
      ({ order: res, rows }) => res.body.missions.total === 6 && rows.length > 0 && res.body.next_cycle?.index === Math.max(...rows.map((r) => r.index)) + 1,
    );
    await api.request("POST", `${ORDERS}/orders/${order.id}/pause`, { token: own.apiKey });
    const next = before.order.body.next_cycle?.index ?? -1;
    await runOrderCycle(service.runtime.ctx, order.id, next);
    const rows = await cycleRows(order.id);
    expect(rows.find((r) => r.index === next)).toMatchObject({ status: "skipped", skipReason: "paused", photos: 0 });
    const skipped = await receiver.waitFor(1, "order.cycle.skipped");
    expect(skipped[0]?.json.data).toMatchObject({ order_id: order.id, cycle_index: next, reason: "paused" });
    expect((await getOrder(own.apiKey, order.id)).body.missions.total).toBe(6);
  });

  it("a recurring quote says when its next cycles would fall (the schedule's own dates once the order exists); a one-off quote has none", async () => {
    const own = await orderPartner(api);
    const recurring = { enabled: true, frequency: "weekly", day_of_week: 5, time_window: "18:00-21:00" } as const;
    const body = {
      category: "cultural_exterior" as const,
      requirements: { angles: ["front" as const] },
      locations: [{ name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } }],
      recurring,
    };
    const quote = await api.request<{ schedule: string; next_cycles: { index: number; local_date: string; dispatch_at: string }[] | null }>(
      "POST",
      `${ORDERS}/orders/quote`,
      { token: own.apiKey, body },
    );
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.schedule).toBe("Every Friday, 18:00–21:00 local time");
    const cycles = quote.body.next_cycles ?? [];
    expect(cycles).toHaveLength(4);
    for (const [i, cycle] of cycles.entries()) {
      expect(new Date(`${cycle.local_date}T12:00:00Z`).getUTCDay()).toBe(5);
      if (i > 0) expect(Date.parse(cycle.local_date) - Date.parse(cycles[i - 1]?.local_date ?? "")).toBe(7 * 86_400_000);
    }
    const order = await createOrder(api, own.apiKey, { ...body, recurring });
    const schedule = await api.request<{ cycles: { local_date: string }[] }>("GET", `${ORDERS}/orders/${order.id}/schedule?count=4`, { token: own.apiKey });
    expect(schedule.body.cycles.map((c) => c.local_date)).toEqual(cycles.map((c) => c.local_date));

    const once = await api.request<{ next_cycles: unknown }>("POST", `${ORDERS}/orders/quote`, { token: own.apiKey, body: { ...body, recurring: undefined } });
    expect(once.status, once.text).toBe(200);
    expect(once.body.next_cycles).toBeNull();
  });

  it("answers 409 for the schedule of a one-off order", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}/schedule`, { token: own.apiKey }), 409, "order_not_recurring");
  });
});

describe("expiry", () => {
  it("expires orders left unconfirmed for 7 days", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    const expiresIn = Date.parse(order.expires_at ?? "") - Date.parse(order.created_at);
    expect(expiresIn).toBe(7 * 86_400_000);
    const { db } = service.runtime.ctx;
    await db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    expect(await expireOrders(service.runtime.ctx)).toBeGreaterThanOrEqual(1);
    const res = await getOrder(own.apiKey, order.id);
    expect(res.body.status).toBe("expired");
    expectProblem(await confirm(api, own.apiKey, order.id), 409, "invalid_order_state");
    const events = await queryRows<{ type: string }>(db, sql`select type from events where data->>'order_id' = ${order.id}`);
    expect(events.map((e) => e.type)).toEqual(["order.expired"]);
  });
});
