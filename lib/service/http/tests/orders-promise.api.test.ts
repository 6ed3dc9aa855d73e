// The delivery promise after payment, over HTTP: the placed order keeps the promise its quote
// stated (deliver_by), the promise sweep — run with the test's own clock, never by waiting — turns
// a location at risk (its task untaken past its expected take time: escalated, shown first and to
// zoomers farther away) and then late, each webhook sent once; a late location is cancelled free of
// charge with one refund however often (and however concurrently) it is asked; the monthly on-time
// report counts locations delivered by their promise and after it.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { assignments, missions, orderCycles } from "@/lib/db/schema";
import type { OnTimeReport, Order, Quote } from "@/lib/schemas/order";
import { sweepDeliveryPromises } from "@/lib/service/orders/sweep-delivery-promises";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner, sendTaskPhotoFromSouth, type OrderPartner } from "./orders-client";
import { createZoomer } from "./photos";
import { pollUntil } from "./poll-until";
import { Receiver } from "./receiver";

let service: TestService;
let api: TestClient;
let receiver: Receiver;

const HOUR = 3_600_000;
const BOLOGNA = { lat: 44.4949, lng: 11.3426 };
const TURIN = { lat: 45.0703, lng: 7.6869 };
/** About 30 km north of Turin. */
const NORTH_OF_TURIN = { lat: TURIN.lat + 30 / 111.2, lng: TURIN.lng };
const NAPLES = { lat: 40.8518, lng: 14.2681 };
const GENOA = { lat: 44.4056, lng: 8.9463 };
const PALERMO = { lat: 38.1157, lng: 13.3615 };

const db = () => service.runtime.ctx.db;
/** The service's clock for the sweep: the test moves it, nothing waits. */
const sweepAt = (now: Date) => sweepDeliveryPromises(service.runtime.ctx, { now });

beforeAll(async () => {
  service = await startTestService({}, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});

type FieldTask = { id: string; escalated: boolean; distance_m: number; location: { name: string } };

const getOrder = async (partner: OrderPartner, id: string) => (await api.request<Order>("GET", `${ORDERS}/orders/${id}`, { token: partner.apiKey })).body;
const tasksAt = async (token: string, at: { lat: number; lng: number }, radiusKm: number) =>
  (await api.request<{ data: FieldTask[] }>("GET", `/api/v1/field/assignments?lat=${at.lat}&lng=${at.lng}&radius_km=${radiusKm}`, { token })).body.data;
/**
 * The events of this type for the order, each once: delivery is at least once (a slow answer on a
 * loaded machine is retried with the same event id), so copies of one event are one event here;
 * the events table (eventCount) shows each was recorded once.
 */
const eventsOf = (type: string, orderId: string) =>
  receiver
    .of(type)
    .filter((r) => r.json.data.order_id === orderId)
    .filter((r, i, all) => all.findIndex((o) => o.json.id === r.json.id) === i);

async function partnerWithDeliveryUrl(): Promise<OrderPartner> {
  const partner = await orderPartner(api);
  expect((await api.request("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey })).status).toBe(201);
  return partner;
}

/** A one-location, one-angle order at `at`, confirmed (paid): dispatched at once. */
async function placedOrder(partner: OrderPartner, at: { lat: number; lng: number }, name: string, withUrl = true): Promise<Order> {
  const order = await createOrder(api, partner.apiKey, {
    client_reference: name,
    requirements: { angles: ["front"] },
    locations: [{ location_id: "loc_1", name, coordinates: at }],
    ...(withUrl ? { delivery: { webhook_url: `${receiver.url}/promise` } } : {}),
  });
  const confirmed = await confirm(api, partner.apiKey, order.id);
  expect(confirmed.status, confirmed.text).toBe(200);
  expect(confirmed.body.status).toBe("in_progress");
  return confirmed.body;
}

/** Five locations near `at` delivered 10 days ago, 40–80 h after opening: p50 60 h, p90 76 h. */
async function seedSlowHistory(partner: OrderPartner, at: { lat: number; lng: number }) {
  const hours = [40, 50, 60, 70, 80];
  const order = await createOrder(api, partner.apiKey, {
    requirements: { angles: ["front"] },
    locations: hours.map((_, i) => ({ location_id: `loc_past_${i}`, name: `Past ${i}`, coordinates: { lat: at.lat + i * 0.002, lng: at.lng + i * 0.002 } })),
  });
  expect((await confirm(api, partner.apiKey, order.id)).status).toBe(200);
  const opened = new Date(Date.now() - 10 * 24 * HOUR);
  for (const [i, h] of hours.entries()) {
    const [mission] = await db()
      .select()
      .from(missions)
      .where(and(eq(missions.orderId, order.id), eq(missions.locationId, `loc_past_${i}`)));
    if (!mission) throw new Error("history mission missing");
    const delivered = new Date(opened.getTime() + h * HOUR);
    await db()
      .update(assignments)
      .set({ createdAt: opened, status: "verified", completedAt: delivered, deliveredAt: delivered })
      .where(eq(assignments.missionId, mission.id));
    await db().update(missions).set({ createdAt: opened, status: "completed", completedAt: delivered }).where(eq(missions.id, mission.id));
  }
}

async function eventCount(type: string, orderId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from events where type = ${type} and data->>'order_id' = ${orderId}`);
  return row?.n ?? 0;
}

describe("the delivery promise", () => {
  it("keeps the quote's promise as deliver_by, turns at_risk then late by the sweep's clock, and sends each webhook once", async () => {
    const partner = await partnerWithDeliveryUrl();
    await seedSlowHistory(partner, BOLOGNA);
    const body = orderBody({
      requirements: { angles: ["front"] },
      locations: [{ location_id: "loc_1", name: "Due Torri", coordinates: BOLOGNA }],
      delivery: { webhook_url: `${receiver.url}/promise` },
    });

    // The quote states the promise before paying: the estimate (p90 76 h) binds over the plan's 48 h.
    const quote = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.delivery_estimate).toMatchObject({ p50_hours: 60, p90_hours: 76 });
    expect(quote.body.delivery_promise).toMatchObject({ hours: 76, source: "estimate", expected_take_hours: 60 });

    const created = await createOrder(api, partner.apiKey, body);
    const stated = created.quote.delivery_promise;
    if (!stated) throw new Error("the order's quote states no promise");
    expect(stated).toMatchObject({ hours: 76, source: "estimate" });
    expect(created).toMatchObject({ deliver_by: null, delivery_status: null });
    expect(created.locations[0]).toMatchObject({ deliver_by: null, delivery_status: null, escalated: false });

    const placed = (await confirm(api, partner.apiKey, created.id)).body;
    const paidAt = Date.parse(placed.confirmed_at ?? "");
    const location = placed.locations[0];
    // deliver_by is the quote's promise, counted from payment, to the millisecond.
    expect(Date.parse(placed.deliver_by ?? "") - paidAt).toBe(Date.parse(stated.deliver_by) - Date.parse(created.quote.created_at));
    expect(location).toMatchObject({ cycle_index: 0, deliver_by: placed.deliver_by, delivery_status: "on_track", escalated: false, cancelled_at: null });
    expect(Date.parse(location?.expected_take_by ?? "") - paidAt).toBe(60 * HOUR);
    expect(placed.delivery_status).toBe("on_track");

    // Before the expected take time nothing changes.
    await sweepAt(new Date(paidAt + 59 * HOUR));
    expect((await getOrder(partner, created.id)).delivery_status).toBe("on_track");

    // Past it, the untaken task is escalated and the order is at risk; sweeping again changes nothing.
    await sweepAt(new Date(paidAt + 61 * HOUR));
    await sweepAt(new Date(paidAt + 62 * HOUR));
    const atRisk = await getOrder(partner, created.id);
    expect(atRisk.delivery_status).toBe("at_risk");
    expect(atRisk.locations[0]).toMatchObject({ delivery_status: "at_risk", escalated: true });
    expect(atRisk.deliver_by).toBe(placed.deliver_by); // never recomputed

    // Past deliver_by it is late; twice, and two sweeps at the same moment, still one late each.
    await sweepAt(new Date(paidAt + 77 * HOUR));
    await Promise.all([sweepAt(new Date(paidAt + 78 * HOUR)), sweepAt(new Date(paidAt + 78 * HOUR))]);
    const late = await getOrder(partner, created.id);
    expect(late.delivery_status).toBe("late");
    expect(late.locations[0]).toMatchObject({ delivery_status: "late", escalated: true, deliver_by: placed.deliver_by });

    const [riskEvent] = await pollUntil(
      async () => eventsOf("order.at_risk", created.id),
      (e) => e.length >= 1,
      60_000,
    );
    await pollUntil(
      async () => eventsOf("order.late", created.id),
      (e) => e.length >= 1,
      60_000,
    );
    expect(riskEvent?.json.data).toMatchObject({
      order_id: created.id,
      client_reference: "test-order",
      locations: [{ location_id: "loc_1", name: "Due Torri", cycle_index: 0, deliver_by: placed.deliver_by, escalated: true }],
    });
    expect(eventsOf("order.late", created.id)[0]?.json.data).toMatchObject({
      order_id: created.id,
      delivery_status: "late",
      locations: [{ location_id: "loc_1", delivery_status: "late" }],
    });
    // Exactly once each: in the outbox and at the receiver.
    expect(await eventCount("order.at_risk", created.id)).toBe(1);
    expect(await eventCount("order.late", created.id)).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf("order.at_risk", created.id)).toHaveLength(1);
    expect(eventsOf("order.late", created.id)).toHaveLength(1);
  }, 120_000);

  it("shows an escalated task first, and to a zoomer farther away than the radius asked", async () => {
    const partner = await partnerWithDeliveryUrl();
    const order = await placedOrder(partner, TURIN, "Mole Antonelliana");
    const paidAt = Date.parse(order.confirmed_at ?? "");
    const near = await createZoomer(api);
    const far = await createZoomer(api);

    // Before: the zoomer 30 km away asking for 10 km does not see it; one nearby does, not escalated.
    expect((await tasksAt(far.token, NORTH_OF_TURIN, 10)).map((t) => t.location.name)).not.toContain("Mole Antonelliana");
    expect((await tasksAt(near.token, TURIN, 1)).find((t) => t.location.name === "Mole Antonelliana")).toMatchObject({ escalated: false });

    // No estimate here: the plan's 48 h binds, and the task is expected to be taken within 24 h.
    expect(order.quote.delivery_promise).toMatchObject({ hours: 48, source: "plan", expected_take_hours: 24 });
    const report = await sweepAt(new Date(paidAt + 24 * HOUR + 60_000));
    expect(report.escalatedTasks).toBeGreaterThanOrEqual(1);

    // A task near the far zoomer, dispatched after the sweep, is not escalated: it comes second although nearer.
    const nearby = await placedOrder(partner, NORTH_OF_TURIN, "Venaria gate", false);
    const farList = await tasksAt(far.token, NORTH_OF_TURIN, 10);
    expect(farList.map((t) => [t.location.name, t.escalated])).toEqual([
      ["Mole Antonelliana", true],
      ["Venaria gate", false],
    ]);
    expect(farList[0]?.distance_m).toBeGreaterThan(25_000);
    expect(farList[1]?.distance_m).toBeLessThan(100);
    // Not beyond the wider reach: 5 × 2 km does not reach 30 km.
    expect((await tasksAt(far.token, NORTH_OF_TURIN, 2)).map((t) => t.location.name)).toEqual(["Venaria gate"]);
    expect((await tasksAt(near.token, TURIN, 1))[0]).toMatchObject({ escalated: true });

    // The partner is told: order.at_risk, and the location's escalated flag.
    await pollUntil(
      async () => eventsOf("order.at_risk", order.id),
      (e) => e.length === 1,
      60_000,
    );
    expect((await getOrder(partner, order.id)).locations[0]).toMatchObject({ delivery_status: "at_risk", escalated: true });
    expect((await getOrder(partner, nearby.id)).locations[0]).toMatchObject({ delivery_status: "on_track", escalated: false });
  }, 120_000);

  it("cancels a late location free of charge with one refund, however often and concurrently asked; an on-time one is refused", async () => {
    const partner = await partnerWithDeliveryUrl();
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"] },
      locations: [
        { location_id: "loc_a", name: "Castel Nuovo", coordinates: NAPLES },
        { location_id: "loc_b", name: "Castel dell'Ovo", coordinates: { lat: NAPLES.lat - 0.01, lng: NAPLES.lng - 0.01 } },
        { location_id: "loc_c", name: "Piazza del Plebiscito", coordinates: { lat: NAPLES.lat - 0.02, lng: NAPLES.lng + 0.02 } },
      ],
    });
    const placed = (await confirm(api, partner.apiKey, order.id)).body;
    const paidAt = Date.parse(placed.confirmed_at ?? "");
    const price = (id: string) => placed.quote.line_items.find((l) => l.location_id === id)?.amount_cents ?? 0;
    const cancel = (location: string, body?: unknown) =>
      api.request<Order>("POST", `${ORDERS}/orders/${order.id}/locations/${location}/cancel`, {
        token: partner.apiKey,
        ...(body === undefined ? {} : { body }),
      });
    const refunds = async () => (await getOrder(partner, order.id)).payments.filter((p) => p.kind === "refund" && p.status === "succeeded");

    // On time: refused with a stable code; an unknown location is 404.
    expectProblem(await cancel("loc_a"), 409, "location_not_late");
    expectProblem(await cancel("loc_nowhere"), 404, "not_found");

    await sweepAt(new Date(paidAt + 49 * HOUR));
    expect((await getOrder(partner, order.id)).locations.map((l) => l.delivery_status)).toEqual(["late", "late", "late"]);

    // Asked twice in a row: the same answer, one refund of the location's price.
    const first = await cancel("loc_a", { reason: "Too late for our campaign" });
    expect(first.status, first.text).toBe(200);
    const second = await cancel("loc_a");
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(first.body.locations[0]).toMatchObject({ location_id: "loc_a", delivery_status: "late" });
    expect(first.body.locations[0]?.cancelled_at).not.toBeNull();
    expect((await refunds()).map((r) => r.amount_cents)).toEqual([price("loc_a")]);
    expect(first.body.amount_refunded_cents).toBe(price("loc_a"));

    // Asked at the same moment: both answered, one refund.
    const both = await Promise.all([cancel("loc_b"), cancel("loc_b")]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await refunds()).map((r) => r.amount_cents)).toEqual([price("loc_a"), price("loc_b")]);
    // Its mission is cancelled, so zoomers no longer see the task.
    const zoomer = await createZoomer(api);
    expect((await tasksAt(zoomer.token, { lat: NAPLES.lat - 0.01, lng: NAPLES.lng - 0.01 }, 0.5)).map((t) => t.location.name)).not.toContain("Castel dell'Ovo");

    // The last one is delivered late (after the sweep found it late), then cancelled: refunded once, photos kept.
    await sendTaskPhotoFromSouth(api, { lat: NAPLES.lat - 0.02, lng: NAPLES.lng + 0.02 }, 7101);
    const delivered = await pollUntil(
      () => getOrder(partner, order.id),
      (o) => o.locations[2]?.delivery_status === "delivered_late",
      60_000,
      200,
    );
    expect(delivered.delivery_status).toBe("delivered_late");
    const third = await Promise.all([cancel("loc_c"), cancel("loc_c")]);
    expect(third.map((r) => r.status)).toEqual([200, 200]);
    expect((await refunds()).map((r) => r.amount_cents)).toEqual([price("loc_a"), price("loc_b"), price("loc_c")]);
    const photos = await api.request<{ data: { location_id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey });
    expect(photos.body.data.map((p) => p.location_id)).toEqual(["loc_c"]);
    const final = await getOrder(partner, order.id);
    expect(final.amount_refunded_cents).toBe(final.amount_charged_cents);
  }, 120_000);

  it("gives each cycle of a recurring order its own promise, reported late once per cycle", async () => {
    const partner = await partnerWithDeliveryUrl();
    // No time of day: today's cycle is open whatever the hour; tomorrow's is dispatched now too (24 h ahead).
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"] },
      locations: [{ location_id: "loc_1", name: "Teatro Massimo", coordinates: PALERMO }],
      recurring: { enabled: true, frequency: "daily" },
      delivery: { webhook_url: `${receiver.url}/promise` },
    });
    // No history near Palermo: the plan's promise, the end of the first cycle's window.
    expect(order.quote.delivery_promise).toMatchObject({ source: "plan" });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("active");
    const dispatched = await pollUntil(
      () => getOrder(partner, order.id),
      (o) => o.missions.total === 2,
    );
    const cycles = (await db().select().from(orderCycles).where(eq(orderCycles.orderId, order.id))).sort((a, b) => a.index - b.index);
    expect(cycles).toHaveLength(2);
    const [today, tomorrow] = cycles;
    if (!today || !tomorrow) throw new Error("cycles missing");
    expect(Date.parse(order.quote.delivery_promise?.deliver_by ?? "")).toBe(today.endsAt.getTime());
    // The location shows its latest cycle's promise: tomorrow's window end, its take expected half-way through it.
    expect(dispatched.locations[0]).toMatchObject({ cycle_index: tomorrow.index, deliver_by: tomorrow.endsAt.toISOString(), delivery_status: "on_track" });
    expect(Date.parse(dispatched.locations[0]?.expected_take_by ?? "")).toBe((tomorrow.startsAt.getTime() + tomorrow.endsAt.getTime()) / 2);

    // Today's cycle is late once its window has closed: one order.late, for that cycle; tomorrow's later gets its own.
    await sweepAt(new Date(today.endsAt.getTime() + 60_000));
    const first = await pollUntil(
      async () => eventsOf("order.late", order.id),
      (e) => e.length === 1,
      60_000,
    );
    expect(first[0]?.json.data).toMatchObject({ locations: [{ location_id: "loc_1", cycle_index: today.index, deliver_by: today.endsAt.toISOString() }] });
    expect((await getOrder(partner, order.id)).locations[0]).toMatchObject({ cycle_index: tomorrow.index, delivery_status: "on_track" });
    await sweepAt(new Date(tomorrow.endsAt.getTime() + 60_000));
    await sweepAt(new Date(tomorrow.endsAt.getTime() + 120_000));
    const both = await pollUntil(
      async () => eventsOf("order.late", order.id),
      (e) => e.length === 2,
      60_000,
    );
    expect(both.map((e) => (e.json.data.locations as { cycle_index: number }[])[0]?.cycle_index)).toEqual([today.index, tomorrow.index]);
    expect(await eventCount("order.late", order.id)).toBe(2);
    expect(await eventCount("order.at_risk", order.id)).toBe(2);
  }, 120_000);

  it("reports per month the locations delivered by their promise and after it, for the caller's organisation only", async () => {
    const partner = await orderPartner(api);
    const other = await orderPartner(api);
    const month = new Date().toISOString().slice(0, 7);
    const report = (query: string, key = partner.apiKey) => api.request<OnTimeReport>("GET", `${ORDERS}/orders/reports/on-time${query}`, { token: key });

    // One delivered on time…
    const onTime = await placedOrder(partner, GENOA, "Lanterna", false);
    await sendTaskPhotoFromSouth(api, GENOA, 7201);
    await pollUntil(
      () => getOrder(partner, onTime.id),
      (o) => o.delivery_status === "delivered_on_time",
      60_000,
      200,
    );
    // …and one late by the sweep's clock, then delivered.
    const elsewhere = { lat: GENOA.lat + 0.05, lng: GENOA.lng + 0.05 };
    const late = await placedOrder(partner, elsewhere, "Boccadasse", false);
    await sweepAt(new Date(Date.parse(late.confirmed_at ?? "") + 49 * HOUR));
    await sendTaskPhotoFromSouth(api, elsewhere, 7202);
    await pollUntil(
      () => getOrder(partner, late.id),
      (o) => o.delivery_status === "delivered_late",
      60_000,
      200,
    );

    const res = await report(`?from=${month}&to=${month}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ months: [{ month, locations_delivered: 2, delivered_on_time: 1, delivered_late: 1, on_time_share: 0.5 }] });
    // The default: the last 12 months, oldest first, this one last.
    const year = (await report("")).body.months;
    expect(year).toHaveLength(12);
    expect(year.at(-1)).toMatchObject({ month, locations_delivered: 2 });
    expect(year[0]).toMatchObject({ locations_delivered: 0, on_time_share: null });
    // Another organisation sees none of it.
    expect((await report(`?from=${month}&to=${month}`, other.apiKey)).body.months).toEqual([
      { month, locations_delivered: 0, delivered_on_time: 0, delivered_late: 0, on_time_share: null },
    ]);

    expectProblem(await report("?from=2026-13&to=2026-12"), 422, "validation_failed");
    expectProblem(await report("?from=2026-06&to=2026-05"), 422, "validation_failed");
    expectProblem(await report("?from=2020-01&to=2026-01"), 422, "validation_failed");
    expectProblem(await api.request("GET", `${ORDERS}/orders/reports/on-time`), 401, "unauthorized");
  }, 180_000);
});
