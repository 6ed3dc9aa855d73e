// The demo partner's orders, placed through the real order interface with its API key and paid
// with the test card on file: a one-off order of two Florence places (when one is fulfilled, the
// partner places the next one a while later) and a daily order that asks for daylight photos.
import type { Angle } from "@/lib/orders/vocabulary";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import type { DemoApi } from "./demo-api";
import { placeByKey } from "./florence-places";

interface OrderPlan {
  places: readonly [string, string];
  angles: readonly Angle[];
  description: string;
}

/** The one-off orders the partner places in turn. */
export const DEMO_ONE_OFF_ORDERS: readonly OrderPlan[] = [
  { places: ["duomo", "palazzo_vecchio"], angles: ["front", "entrance"], description: "Façades for the autumn city guide." },
  { places: ["uffizi", "santa_croce"], angles: ["front", "overview"], description: "Museum fronts for the tickets page." },
  { places: ["santa_maria_novella", "san_lorenzo"], angles: ["front", "entrance"], description: "Church entrances for the accessibility map." },
  { places: ["pitti", "annunziata"], angles: ["front", "overview"], description: "Palaces and squares for the walking tour." },
];

/** The recurring order: every day, in daylight. Its location ids say so (see requiresDaylight). */
export const DEMO_DAILY_ORDER: OrderPlan = {
  places: ["ponte_vecchio", "uffizi"],
  angles: ["front", "overview"],
  description: "The river front, every day in daylight.",
};

export const DAILY_LOCATION_PREFIX = "loc_daily_";
export const ONE_OFF_REFERENCE = "demo-one-off";
export const DAILY_REFERENCE = "demo-daily";

/** How long after a one-off order ends the partner places the next one. */
export const REORDER_AFTER_MS = 20 * 60_000;

const LIVE_ONE_OFF = new Set(["pending_confirmation", "payment_action_required", "confirmed", "in_progress"]);
const LIVE_RECURRING = new Set(["pending_confirmation", "active", "paused"]);

function orderBody(plan: OrderPlan, { daily }: { daily: boolean }): CreateOrderInput {
  return {
    client_reference: daily ? DAILY_REFERENCE : ONE_OFF_REFERENCE,
    category: "cultural_exterior",
    description: plan.description,
    requirements: { angles: [...plan.angles], ...(daily ? { time_of_day: "daylight" as const } : {}) },
    locations: plan.places.map((key) => {
      const place = placeByKey(key);
      return { location_id: `${daily ? DAILY_LOCATION_PREFIX : "loc_"}${key}`, name: place.name, coordinates: { lat: place.lat, lng: place.lng } };
    }),
    ...(daily ? { recurring: { enabled: true, frequency: "daily" as const } } : {}),
  };
}

async function placeAndConfirm(api: DemoApi, body: CreateOrderInput): Promise<Order> {
  const order = await api.expect<Order>("orders", "POST", "/api/orders/v1/orders", body);
  return confirm(api, order);
}

async function confirm(api: DemoApi, order: Pick<Order, "id">): Promise<Order> {
  return api.expect<Order>("orders", "POST", `/api/orders/v1/orders/${order.id}/confirm`, { payment_method: "card" });
}

export async function demoOrders(api: DemoApi): Promise<Order[]> {
  return (await api.expect<{ data: Order[] }>("orders", "GET", `/api/orders/v1/orders?per_page=100&client_reference=${ONE_OFF_REFERENCE}`)).data.concat(
    (await api.expect<{ data: Order[] }>("orders", "GET", `/api/orders/v1/orders?per_page=100&client_reference=${DAILY_REFERENCE}`)).data,
  );
}

/** Whether any of the orders has a task a zoomer could see on the field page (open or reserved). */
async function hasFieldWork(api: DemoApi, orders: Pick<Order, "id">[]): Promise<boolean> {
  for (const order of orders) {
    const tasks = await api.call<{ data: { status: string }[] }>("orders", "GET", `/api/orders/v1/orders/${order.id}/assignments?per_page=100`);
    if (!tasks.ok || tasks.body.data.some((t) => t.status === "open" || t.status === "reserved")) return true;
  }
  return false;
}

/**
 * The always-alive rule for orders: a live daily order, and a one-off order in progress or, once
 * the last one ended, a new one `reorderAfterMs` later (the places differ from the last one's) —
 * or at once when no live order has a task left, so the demo zoomer always has order work nearby.
 * Returns the demo's live orders after any placing.
 */
export async function keepOrdersAlive(
  api: DemoApi,
  random: () => number,
  { now = new Date(), reorderAfterMs = REORDER_AFTER_MS }: { now?: Date; reorderAfterMs?: number } = {},
): Promise<{ live: Order[]; placed: Order[] }> {
  const orders = await demoOrders(api);
  const placed: Order[] = [];
  const live: Order[] = [];

  const daily = orders.filter((o) => o.recurring?.enabled && LIVE_RECURRING.has(o.status));
  for (const order of daily) live.push(order.status === "pending_confirmation" ? await confirm(api, order) : order);
  if (daily.length === 0) {
    const order = await placeAndConfirm(api, orderBody(DEMO_DAILY_ORDER, { daily: true }));
    placed.push(order);
    live.push(order);
  }

  const oneOffs = orders.filter((o) => !o.recurring?.enabled);
  const running = oneOffs.filter((o) => LIVE_ONE_OFF.has(o.status));
  for (const order of running) live.push(order.status === "pending_confirmation" ? await confirm(api, order) : order);
  if (running.length === 0) {
    // Newest first: the last one to end decides when the next is due, and where it is not.
    const last = [...oneOffs].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
    if (!last || now.getTime() - Date.parse(last.updated_at) >= reorderAfterMs || !(await hasFieldWork(api, live))) {
      const lastPlaces = new Set(last?.locations.map((l) => l.location_id));
      const choices = DEMO_ONE_OFF_ORDERS.filter((plan) => !plan.places.some((key) => lastPlaces.has(`loc_${key}`)));
      const plan = last ? choices[Math.floor(random() * choices.length)] : DEMO_ONE_OFF_ORDERS[0];
      if (plan) {
        const order = await placeAndConfirm(api, orderBody(plan, { daily: false }));
        placed.push(order);
        live.push(order);
      }
    }
  }
  return { live, placed };
}

/** Whether a task's location asks for daylight: the daily order's locations do. */
export function requiresDaylight(locationId: string): boolean {
  return locationId.startsWith(DAILY_LOCATION_PREFIX);
}
