// Issue 22's schedule defects, as a partner meets them through the order interface: an order with
// no cycle left to run (past event dates, a season or a weekday that excludes every date) or with
// an event date outside today … two years ahead is refused at create and at quote with a 422 at the
// member that empties it; a schedule holding a date the calendar cannot follow never answers 500;
// and a cycle whose time of day has already passed today moves to its next day instead of being
// dispatched into a closed window.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, orderCycles, orders } from "@/lib/db/schema";
import { timeZoneAt } from "@/lib/geo/time-zone";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner } from "./orders-client";
import { createZoomer } from "./photos";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(async () => {
  await service.close();
});

const DAY_MS = 86_400_000;

/** The local date ("YYYY-MM-DD") in `timeZone` at `instant` (Florence's zone unless said). */
function localDate(instant: number, timeZone = "Europe/Rome"): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first date at least `after` days from Florence's today that falls on ISO weekday `weekday`. */
function nextWeekday(weekday: number, after = 2): string {
  const start = addDays(localDate(Date.now()), after);
  for (let i = 0; i < 7; i++) {
    const date = addDays(start, i);
    if (((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1 === weekday) return date;
  }
  throw new Error("unreachable");
}

type Recurring = NonNullable<CreateOrderInput["recurring"]>;
const events = (event_dates: string[], extra: Partial<Recurring> = {}): Recurring => ({ enabled: true, event_nights_only: true, event_dates, ...extra });

/** Create and quote answer the same 422 at the same pointers, and nothing is stored. */
async function expectRefused(key: string, body: CreateOrderInput, pointers: string[]) {
  for (const path of ["/orders", "/orders/quote"]) {
    const res = await api.request("POST", `${ORDERS}${path}`, { token: key, body });
    expect(pointersOf(expectProblem(res, 422, "validation_failed")), path).toEqual(pointers);
  }
  const list = await api.request<{ data: unknown[] }>("GET", `${ORDERS}/orders`, { token: key });
  expect(list.body.data).toEqual([]);
}

describe("an order with no cycle left to run is refused at create and quote (issue 22, item 1)", () => {
  it.each(["2026-11-26", "1969-12-31", "0001-01-01"])("event date %s, in the past: 422 at /recurring/event_dates/0", async (date) => {
    const own = await orderPartner(api);
    await expectRefused(own.apiKey, orderBody({ recurring: events([date]) }), ["/recurring/event_dates/0"]);
  });

  it("summer_only with a December event date in Florence: 422 at /recurring/season", async () => {
    const own = await orderPartner(api);
    const december = `${new Date().getUTCFullYear() + 1}-12-24`;
    await expectRefused(own.apiKey, orderBody({ recurring: events([december], { season: "summer_only" }) }), ["/recurring/season"]);
    // The same date is summer south of the equator: that order runs, on that date.
    const sydney = orderBody({
      locations: [{ name: "Bondi", coordinates: { lat: -33.8908, lng: 151.2743 } }],
      recurring: events([december], { season: "summer_only" }),
    });
    const quote = await api.request<{ next_cycles: { local_date: string }[] }>("POST", `${ORDERS}/orders/quote`, { token: own.apiKey, body: sydney });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.next_cycles.map((c) => c.local_date)).toEqual([december]);
  });

  it("a weekly Friday order whose only event date is a Monday: 422 at /recurring/day_of_week", async () => {
    const own = await orderPartner(api);
    const monday = nextWeekday(1);
    const res = await api.request("POST", `${ORDERS}/orders`, {
      token: own.apiKey,
      body: orderBody({ recurring: events([monday], { frequency: "weekly", day_of_week: 5 }) }),
    });
    expect(expectProblem(res, 422, "validation_failed").errors?.[0]?.message).toMatch(/Friday/);
    await expectRefused(own.apiKey, orderBody({ recurring: events([monday], { frequency: "weekly", day_of_week: 5 }) }), ["/recurring/day_of_week"]);
    // With a Friday among the dates the order runs on that Friday only.
    const friday = nextWeekday(5);
    const order = await createOrder(api, own.apiKey, { recurring: events([monday, friday], { frequency: "weekly", day_of_week: 5 }) });
    const schedule = await api.request<{ cycles: { local_date: string }[] }>("GET", `${ORDERS}/orders/${order.id}/schedule`, { token: own.apiKey });
    expect(schedule.body.cycles.map((c) => c.local_date)).toEqual([friday]);
  });
});

describe("event dates lie from today to two years ahead (issue 22, item 2)", () => {
  it("refuses 9999-12-31 and a date past two years at create and quote, at the date", async () => {
    const own = await orderPartner(api);
    await expectRefused(own.apiKey, orderBody({ recurring: events(["9999-12-31"]) }), ["/recurring/event_dates/0"]);
    const today = localDate(Date.now());
    await expectRefused(own.apiKey, orderBody({ recurring: events([addDays(today, 30), addDays(today, 2 * 365 + 7)]) }), ["/recurring/event_dates/1"]);
    const inYear = addDays(today, 365);
    const quote = await api.request<{ next_cycles: { local_date: string }[] }>("POST", `${ORDERS}/orders/quote`, {
      token: own.apiKey,
      body: orderBody({ recurring: events([inYear]) }),
    });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.next_cycles.map((c) => c.local_date)).toEqual([inYear]);
  });

  it("documents the window in the OpenAPI description of event_dates", async () => {
    const doc = await api.request<{ components: { schemas: { Recurring: { properties: { event_dates: { description: string } } } } } }>(
      "GET",
      `${ORDERS}/openapi.json`,
    );
    expect(doc.status, doc.text.slice(0, 200)).toBe(200);
    expect(doc.body.components.schemas.Recurring.properties.event_dates.description).toMatch(/today to two years ahead/);
  });

  it("answers the schedule of an order stored with 9999-12-31 (from before the window) instead of 500", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, { recurring: events([addDays(localDate(Date.now()), 30)]) });
    await service.runtime.ctx.db
      .update(orders)
      .set({ recurring: sql`jsonb_set(${orders.recurring}, '{event_dates}', '["9999-12-31"]'::jsonb)` })
      .where(eq(orders.id, order.id));
    const schedule = await api.request<{ cycles: unknown[] }>("GET", `${ORDERS}/orders/${order.id}/schedule`, { token: own.apiKey });
    expect(schedule.status, schedule.text).toBe(200);
    expect(schedule.body.cycles).toEqual([]);
    expect((await api.request("GET", `${ORDERS}/orders/${order.id}`, { token: own.apiKey })).status).toBe(200);
  });
});

describe("a cycle is never dispatched into a window already closed for the day (issue 22, item 3)", () => {
  // A point on the equator where the sun's time is about 17:00 now: today's `midday` (solar noon
  // ± 2 h) closed some three hours ago, and the local date is still today whatever the zone.
  function lateAfternoon() {
    const now = new Date();
    const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
    const lng = Math.round(((((17 - utcHours) * 15 + 540) % 360) - 180) * 1000) / 1000;
    const timeZone = timeZoneAt(0, lng);
    return { coordinates: { lat: 0, lng }, timeZone, today: localDate(now.getTime(), timeZone) };
  }

  const body = (coordinates: { lat: number; lng: number }, recurring: Recurring, timeOfDay?: "midday"): CreateOrderInput =>
    orderBody({
      requirements: { angles: ["front"], ...(timeOfDay ? { time_of_day: timeOfDay } : {}) },
      locations: [{ name: "Equator", coordinates }],
      recurring,
    });

  it("moves a daily midday order to tomorrow in the quote, the schedule and at confirmation", async () => {
    const own = await orderPartner(api);
    const { coordinates, timeZone, today } = lateAfternoon();
    const tomorrow = addDays(today, 1);
    const daily = { enabled: true, frequency: "daily" } as const;
    // Without a time of day, today still counts.
    const anyTime = await api.request<{ next_cycles: { local_date: string }[] }>("POST", `${ORDERS}/orders/quote`, {
      token: own.apiKey,
      body: body(coordinates, daily),
    });
    expect(anyTime.body.next_cycles[0]?.local_date).toBe(today);

    const quote = await api.request<{ next_cycles: { local_date: string }[] }>("POST", `${ORDERS}/orders/quote`, {
      token: own.apiKey,
      body: body(coordinates, daily, "midday"),
    });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.next_cycles[0]?.local_date, `${timeZone} today ${today}`).toBe(tomorrow);

    const created = await api.request<Order>("POST", `${ORDERS}/orders`, { token: own.apiKey, body: body(coordinates, daily, "midday") });
    expect(created.status, created.text).toBe(201);
    const schedule = await api.request<{ cycles: { local_date: string; windows: { starts_at: string; ends_at: string }[] }[] }>(
      "GET",
      `${ORDERS}/orders/${created.body.id}/schedule?count=2`,
      { token: own.apiKey },
    );
    expect(schedule.body.cycles.map((c) => c.local_date)).toEqual([tomorrow, addDays(tomorrow, 1)]);
    // The window shown is the sun's: four hours around solar noon.
    const window = schedule.body.cycles[0]?.windows[0];
    expect(Date.parse(window?.ends_at ?? "") - Date.parse(window?.starts_at ?? "")).toBeLessThanOrEqual(4 * 3_600_000);
    expect(Date.parse(window?.starts_at ?? "")).toBeGreaterThan(Date.now());

    const confirmedAt = Date.now();
    const confirmed = await confirm(api, own.apiKey, created.body.id);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.next_cycle?.local_date ?? tomorrow).not.toBe(today);
    const cycles = await service.runtime.ctx.db.select().from(orderCycles).where(eq(orderCycles.orderId, created.body.id));
    expect(cycles.map((c) => c.localDate)).not.toContain(today);
    const tasks = await service.runtime.ctx.db.select().from(assignments).where(eq(assignments.orderId, created.body.id));
    for (const task of tasks) expect(task.windowEnd?.getTime()).toBeGreaterThan(confirmedAt);
  });

  it("moves a weekly midday order on today's weekday to the same day next week", async () => {
    const own = await orderPartner(api);
    const { coordinates, today } = lateAfternoon();
    const weekday = ((new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const weekly = { enabled: true, frequency: "weekly", day_of_week: weekday } as const;
    const quote = await api.request<{ next_cycles: { local_date: string }[] }>("POST", `${ORDERS}/orders/quote`, {
      token: own.apiKey,
      body: body(coordinates, weekly, "midday"),
    });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.next_cycles.map((c) => c.local_date).slice(0, 2)).toEqual([addDays(today, 7), addDays(today, 14)]);
  });
});

describe("the zoomer's task states the time of day as times at the place (issue 22, item 3)", () => {
  interface Task {
    window: { starts_at: string; ends_at: string } | null;
    time_of_day: { requirement: string; local_date: string; starts_at: string | null; ends_at: string | null; local: string | null } | null;
  }
  const COLOSSEUM = { lat: 41.8902, lng: 12.4922 };
  const TREVI = { lat: 41.9009, lng: 12.4833 };
  const hhmm = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Rome", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));

  it("gives one-off daylight work today's sunrise–sunset in Rome time, or tomorrow's once the sun has set", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, {
      requirements: { angles: ["front"], time_of_day: "daylight" },
      locations: [{ name: "Colosseo", coordinates: COLOSSEUM }],
    });
    expect((await confirm(api, own.apiKey, order.id)).status).toBe(200);
    const zoomer = await createZoomer(api);
    const now = Date.now();
    const tasks = (
      await api.request<{ data: Task[] }>("GET", `/api/v1/field/assignments?lat=${COLOSSEUM.lat}&lng=${COLOSSEUM.lng}&radius_km=1`, { token: zoomer.token })
    ).body.data;
    expect(tasks).toHaveLength(1);
    const sun = tasks[0]?.time_of_day;
    expect(sun).toMatchObject({ requirement: "daylight", local: expect.stringMatching(/^\d\d:\d\d–\d\d:\d\d$/) });
    expect([localDate(now), addDays(localDate(now), 1)]).toContain(sun?.local_date);
    expect(Date.parse(sun?.ends_at ?? "")).toBeGreaterThan(now);
    expect(sun?.local).toBe(`${hhmm(sun?.starts_at ?? "")}–${hhmm(sun?.ends_at ?? "")}`);
  });

  it("gives a daily daylight cycle's task a window inside the sun's, never one already closed", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, {
      requirements: { angles: ["entrance"], time_of_day: "daylight" },
      locations: [{ name: "Colosseo", coordinates: COLOSSEUM }],
      recurring: { enabled: true, frequency: "daily" },
    });
    const confirmedAt = Date.now();
    expect((await confirm(api, own.apiKey, order.id)).status).toBe(200);
    const zoomer = await createZoomer(api);
    const tasks = (
      await api.request<{ data: Task[] }>("GET", `/api/v1/field/assignments?lat=${COLOSSEUM.lat}&lng=${COLOSSEUM.lng}&radius_km=1`, { token: zoomer.token })
    ).body.data.filter((t) => t.window);
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      expect(Date.parse(task.window?.ends_at ?? "")).toBeGreaterThan(confirmedAt);
      expect(task.window).toEqual({ starts_at: task.time_of_day?.starts_at, ends_at: task.time_of_day?.ends_at, local: expect.any(String) });
    }
  });

  it("states the order's other asks on the task: its local hours, the crowd and the brand (issue 24, item 5)", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, {
      requirements: { angles: ["front"], minimum_crowd: "moderate", brand_match: "Acme" },
      locations: [{ name: "Fontana di Trevi", coordinates: TREVI }],
      recurring: { enabled: true, frequency: "daily", time_window: "18:00-21:00" },
    });
    expect((await confirm(api, own.apiKey, order.id)).status).toBe(200);
    const zoomer = await createZoomer(api);
    // 1.5 km from the Colosseum, where this file's other orders are: only this order's tasks within 300 m.
    const tasks = (
      await api.request<{ data: (Task & { requirements: unknown })[] }>("GET", `/api/v1/field/assignments?lat=${TREVI.lat}&lng=${TREVI.lng}&radius_km=0.3`, {
        token: zoomer.token,
      })
    ).body.data;
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) expect(task.requirements).toEqual({ time_window: "18:00-21:00", minimum_crowd: "moderate", brand: "Acme" });
  });
});
