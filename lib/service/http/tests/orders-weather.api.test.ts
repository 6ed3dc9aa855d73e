// `pause_conditions.weather_extreme` of recurring orders: the scheduler reads each location's
// forecast for its window before dispatching a cycle (a loopback stand-in for the weather service
// here); a location with extreme weather forecast is left out and not charged, a cycle with it
// everywhere is skipped, and a weather service that does not answer stops nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderCycles } from "@/lib/db/schema";
import type { Order, Quote } from "@/lib/schemas/order";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { Receiver } from "./receiver";
import { pollUntil } from "./poll-until";
import { startWeatherStandIn, type WeatherStandIn } from "./weather-stand-in";

/** Latitudes (to 4 places, as asked) where the stand-in forecasts a thunderstorm. */
const stormAt = new Set<string>();
let weatherDown = false;
const asked: URLSearchParams[] = [];

let weather: WeatherStandIn;
let service: TestService;
let api: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  weather = await startWeatherStandIn((query) => {
    asked.push(query);
    if (weatherDown) return null;
    const days: string[] = [];
    for (let d = Date.parse(`${query.get("start_date") ?? ""}T00:00:00Z`); d <= Date.parse(`${query.get("end_date") ?? ""}T00:00:00Z`); d += 86_400_000) {
      days.push(new Date(d).toISOString().slice(0, 10));
    }
    const time = days.flatMap((day) => Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`));
    const storm = stormAt.has(query.get("latitude") ?? "");
    return { time, temperature_2m: time.map(() => 14), weather_code: time.map(() => (storm ? 95 : 2)), wind_gusts_10m: time.map(() => 30) };
  });
  service = await startTestService({ fulfilment: { weatherUrl: weather.url, analyserUrl: null } }, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  await weather.close();
});

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000) => pollUntil(read, done, timeoutMs, 50);

/** A daily order that skips extreme weather, confirmed; answers once every cycle due now has run. */
async function stormyOrder(path: string, pause = true) {
  const own = await orderPartner(api);
  await api.request("POST", `${ORDERS}/delivery-secret`, { token: own.apiKey });
  const order = await createOrder(api, own.apiKey, {
    recurring: { enabled: true, frequency: "daily", ...(pause ? { pause_conditions: { weather_extreme: true } } : {}) },
    delivery: { webhook_url: `${receiver.url}/${path}` },
  });
  const confirmed = await confirm(api, own.apiKey, order.id);
  expect(confirmed.status, confirmed.text).toBe(200);
  // Caught up: the next cycle is not due yet, and its job is queued.
  const settled = await until(
    () => api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: own.apiKey }),
    (res) => res.body.next_cycle !== null && Date.parse(res.body.next_cycle.dispatch_at) > Date.now(),
  );
  const cycles = await service.runtime.ctx.db.select().from(orderCycles).where(eq(orderCycles.orderId, order.id));
  expect(cycles.length).toBeGreaterThan(0);
  return { own, order: settled.body, cycles };
}

/** What some of an order's locations cost for one cycle, with the recurring discount. */
function shareOf(quote: Quote, locationIds: string[]): number {
  const subtotal = quote.line_items.filter((i) => locationIds.includes(i.location_id)).reduce((sum, i) => sum + i.amount_cents, 0);
  return Math.round((subtotal * quote.total_cents) / quote.subtotal_cents);
}

const netCharged = (order: Order) => order.amount_charged_cents - order.amount_refunded_cents;
const eventsAt = (path: string, event: string) => receiver.requests.filter((r) => r.path === `/${path}` && r.json.event === event);

describe("pause_conditions.weather_extreme", () => {
  it("leaves a location with a thunderstorm forecast out of each cycle, charging only the others", async () => {
    stormAt.clear();
    stormAt.add((43.7731).toFixed(4)); // the Duomo
    const { own, order, cycles } = await stormyOrder("storm-one");
    expect(cycles.map((c) => c.status)).toEqual(cycles.map(() => "dispatched"));
    // Two locations of three in each cycle, 2 angles each.
    expect(cycles.map((c) => c.photos)).toEqual(cycles.map(() => 4));
    const missions = await api.request<{ data: { location_id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/missions`, { token: own.apiKey });
    expect(missions.body.data).toHaveLength(2 * cycles.length);
    expect(missions.body.data.map((m) => m.location_id)).not.toContain("loc_duomo");

    const others = order.quote.line_items.map((i) => i.location_id).filter((id) => id !== "loc_duomo");
    expect(netCharged(order)).toBe(cycles.length * shareOf(order.quote, others));
    // The first cycle was paid in full at confirmation: the Duomo's part of it came back.
    const refunded = await receiver.waitFor(1, "order.refunded");
    expect(refunded.find((r) => r.path === "/storm-one")?.json.data).toMatchObject({
      reason: "weather_extreme",
      amount_cents: shareOf(order.quote, ["loc_duomo"]),
    });

    await until(
      async () => eventsAt("storm-one", "order.location.skipped"),
      (list) => list.length === cycles.length,
    );
    for (const skipped of eventsAt("storm-one", "order.location.skipped")) {
      expect(skipped.json.data).toMatchObject({
        order_id: order.id,
        location_id: "loc_duomo",
        reason: "weather_extreme",
        forecast: { condition: "thunderstorm" },
      });
      expect(String(skipped.json.data.detail)).toMatch(/^Duomo: thunderstorm forecast for \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    }
    // Each location's own window was asked about, at its coordinates.
    expect(asked.some((q) => q.get("latitude") === "43.7678" && q.get("hourly")?.includes("wind_gusts_10m"))).toBe(true);
  });

  it("skips a cycle when every location's forecast is extreme, and charges nothing for it", async () => {
    stormAt.clear();
    for (const lat of [43.7731, 43.7678, 43.768]) stormAt.add(lat.toFixed(4));
    const { order, cycles } = await stormyOrder("storm-all");
    expect(cycles.map((c) => [c.status, c.skipReason, c.photos])).toEqual(cycles.map(() => ["skipped", "weather_extreme", 0]));
    expect(order.missions.total).toBe(0);
    expect(netCharged(order)).toBe(0);
    await until(
      async () => eventsAt("storm-all", "order.cycle.skipped"),
      (list) => list.length === cycles.length,
    );
    const [first] = eventsAt("storm-all", "order.cycle.skipped");
    expect(first?.json.data).toMatchObject({ reason: "weather_extreme", detail: "Extreme weather is forecast at all 3 locations." });
    expect(first?.json.data.locations).toHaveLength(3);
  });

  it("dispatches every location when the weather service does not answer", async () => {
    stormAt.clear();
    stormAt.add((43.7731).toFixed(4));
    weatherDown = true;
    try {
      const { order, cycles } = await stormyOrder("storm-unknown");
      expect(cycles.map((c) => [c.status, c.photos])).toEqual(cycles.map(() => ["dispatched", 6]));
      expect(order.missions.total).toBe(3 * cycles.length);
      expect(netCharged(order)).toBe(cycles.length * order.quote.total_cents);
    } finally {
      weatherDown = false;
    }
  });

  it("never asks for a forecast for an order without the condition, and dispatches it at confirmation", async () => {
    stormAt.clear();
    stormAt.add((43.7731).toFixed(4));
    const before = asked.length;
    const { order, cycles } = await stormyOrder("no-pause", false);
    expect(asked.length).toBe(before);
    expect(order.missions.total).toBe(3 * cycles.length);
  });
});
