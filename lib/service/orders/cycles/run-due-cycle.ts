// The durable scheduler of recurring orders. Each recurring order has one queued job for its next
// cycle (the `orders` queue, due at the cycle's dispatch time). Running it — in one transaction
// with the order row locked — dispatches the cycle (or records why it was skipped) and queues the
// job of the cycle after. The order's `next_cycle_index` and the cycle's unique row make the job
// safe to run twice or late: a restart neither skips nor doubles a cycle.
//
// An order with `pause_conditions.weather_extreme` has the forecast of each location's window read
// first, outside the transaction (a weather service never holds the order's lock): a location whose
// forecast is extreme is left out of the cycle and not charged (`order.location.skipped`); when all
// are, the cycle is skipped (`order.cycle.skipped`, reason `weather_extreme`). A forecast that cannot
// be had never stops a cycle: the location is dispatched.
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { orderCycles, orders, organisations } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { enqueueJob } from "@/lib/service/queue/queue";
import type { Quote, RecurringInput } from "@/lib/schemas/order";
import { log } from "@/lib/log";
import { extremeWeather, type ExtremeWeather } from "@/lib/service/weather/extreme-weather";
import { weatherProvider } from "@/lib/service/weather/weather-provider";
import { dispatchCycle } from "./dispatch-cycle";
import { getOrderLocations, type OrderLocationRow, type OrderRow } from "../order-rows";
import { locationCycles, nextOrderCycles, orderCycleAt, type OrderCycle } from "./order-cycles";
import { PLAN_TERMS } from "../plans";
import { photosUsedThisMonth } from "../quote-order";
import { recurrenceRuleOf } from "./recurrence-rule-of";
import { chargeOrder, hasPaidCycle, refundOrder, refundUndispatchedCycles } from "../take-payment";

export const ORDERS_QUEUE = "orders";

/** Locations left out of a cycle for their forecast, by location id. */
export type ExtremeForecasts = ReadonlyMap<string, ExtremeWeather & { source: string }>;

const NO_EXTREMES: ExtremeForecasts = new Map();
/** Forecasts asked at once when a cycle's locations are checked. */
const FORECAST_CONCURRENCY = 8;

/** Whether the order asks to skip its cycles in extreme weather. */
export function pausesInExtremeWeather(order: Pick<OrderRow, "recurring">): boolean {
  return (order.recurring as RecurringInput | null)?.pause_conditions?.weather_extreme === true;
}

async function skipCycle(tx: Db, order: OrderRow, cycle: OrderCycle, reason: string, detail: string, extra: Record<string, unknown> = {}) {
  const first = cycle.windows[0]?.cycle;
  const inserted = await tx
    .insert(orderCycles)
    .values({
      orderId: order.id,
      orgId: order.orgId,
      index: cycle.index,
      status: "skipped",
      localDate: cycle.localDate,
      startsAt: new Date(first?.starts_at ?? cycle.dispatchAt),
      endsAt: new Date(first?.ends_at ?? cycle.dispatchAt),
      photos: 0,
      skipReason: reason,
    })
    .onConflictDoNothing()
    .returning({ index: orderCycles.index });
  if (inserted.length === 0) return;
  await recordEvent(tx, {
    orgId: order.orgId,
    type: "order.cycle.skipped",
    orderId: order.id,
    data: { order_id: order.id, cycle_index: cycle.index, local_date: cycle.localDate, reason, detail, ...extra },
  });
}

/** The price of some of the order's locations for one cycle, the recurring discount applied. */
function cyclePriceOf(quote: Quote, locationIds: ReadonlySet<string>): { cents: number; photos: number } {
  const items = quote.line_items.filter((item) => locationIds.has(item.location_id));
  if (items.length === quote.line_items.length) return { cents: quote.total_cents, photos: quote.photos_per_cycle };
  const subtotal = items.reduce((sum, item) => sum + item.amount_cents, 0);
  const factor = quote.subtotal_cents > 0 ? quote.total_cents / quote.subtotal_cents : 1;
  return { cents: Math.round(subtotal * factor), photos: items.reduce((sum, item) => sum + item.quantity, 0) };
}

function forecastWords(forecast: ExtremeWeather): string {
  return `${forecast.condition} forecast for ${forecast.at.slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Dispatches cycle `cycle` of an order whose row the caller has locked, charging it if unpaid;
 * the locations in `extreme` are left out of it (and not charged, or refunded when already paid).
 */
async function dispatchRecurringCycle(
  tx: Db,
  ctx: ServiceContext,
  order: OrderRow,
  locations: OrderLocationRow[],
  cycle: OrderCycle,
  now: Date,
  extreme: ExtremeForecasts,
) {
  const [org] = await tx.select().from(organisations).where(eq(organisations.id, order.orgId)).limit(1);
  if (!org) return;
  const quote = order.quote as Quote;
  const terms = PLAN_TERMS[org.plan];
  const byId = new Map(locations.map((l) => [l.id, l]));
  const planned = locationCycles(cycle).flatMap(({ locationId, cycle: c }) => {
    const location = byId.get(locationId);
    return location ? [{ location, window: { localDate: c.local_date, startsAt: new Date(c.starts_at), endsAt: new Date(c.ends_at) } }] : [];
  });
  const going = planned.filter(({ location }) => !extreme.has(location.id));
  const stormy = planned.flatMap(({ location }) => {
    const forecast = extreme.get(location.id);
    return forecast ? [{ location_id: location.id, name: location.name, forecast }] : [];
  });
  const paid = await hasPaidCycle(tx, order.id, cycle.index);
  const refundStormy = async () => {
    const refunded = paid ? await refundOrder(tx, ctx, order, cyclePriceOf(quote, new Set(stormy.map((s) => s.location_id))).cents) : 0;
    if (refunded > 0) {
      await recordEvent(tx, {
        orgId: order.orgId,
        type: "order.refunded",
        orderId: order.id,
        data: { order_id: order.id, amount_cents: refunded, currency: order.currency, reason: "weather_extreme", cycle_index: cycle.index },
      });
    }
  };
  if (going.length === 0 && stormy.length > 0) {
    const detail =
      stormy.length === 1 && stormy[0]
        ? `${stormy[0].name}: ${forecastWords(stormy[0].forecast)}.`
        : `Extreme weather is forecast at all ${stormy.length} locations.`;
    await skipCycle(tx, order, cycle, "weather_extreme", detail, { locations: stormy });
    await refundStormy();
    return;
  }

  const due = cyclePriceOf(quote, new Set(going.map(({ location }) => location.id)));
  if (terms.photosPerMonth !== null && (await photosUsedThisMonth(tx, order.orgId, now)) + due.photos > terms.photosPerMonth) {
    await skipCycle(tx, order, cycle, "quota_exceeded", `The ${terms.label} plan's ${terms.photosPerMonth} photos this month are used up.`);
    return;
  }
  if (!paid) {
    const payment = await chargeOrder(tx, ctx, {
      order,
      amountCents: due.cents,
      cycleIndex: cycle.index,
      paymentMethod: order.paymentMethod ?? org.cardOnFile,
    });
    if (payment.status !== "succeeded") {
      await skipCycle(tx, order, cycle, "payment_failed", payment.failureMessage ?? "The card on file needs authentication.");
      const reason = `Cycle ${cycle.index} could not be charged (${payment.failureCode ?? payment.status}); update the card on file, then resume.`;
      await tx.update(orders).set({ status: "paused", statusReason: reason, updatedAt: now }).where(eq(orders.id, order.id));
      await recordEvent(tx, {
        orgId: order.orgId,
        type: "order.payment_failed",
        orderId: order.id,
        data: {
          order_id: order.id,
          cycle_index: cycle.index,
          payment_id: payment.id,
          failure_code: payment.failureCode,
          failure_message: payment.failureMessage,
        },
      });
      return;
    }
  }
  const dispatched = await dispatchCycle(tx, { order, index: cycle.index, deliveryHours: terms.deliveryHours, now, locations: going });
  if (dispatched === null) return;
  for (const { location_id, name, forecast } of stormy) {
    await recordEvent(tx, {
      orgId: order.orgId,
      type: "order.location.skipped",
      orderId: order.id,
      data: {
        order_id: order.id,
        location_id,
        cycle_index: cycle.index,
        local_date: cycle.localDate,
        reason: "weather_extreme",
        detail: `${name}: ${forecastWords(forecast)}.`,
        forecast,
      },
    });
  }
  await refundStormy();
}

/**
 * For an order that skips extreme weather, and whose cycle `index` is next: the locations whose
 * forecast for their window in that cycle is extreme. Read without a lock, before the cycle's
 * transaction; that transaction checks again that the cycle is still due.
 */
export async function extremeForecastsOf(ctx: ServiceContext, orderId: string, index: number, now = new Date()): Promise<ExtremeForecasts> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order?.confirmedAt || order.status !== "active" || order.nextCycleIndex !== index || !pausesInExtremeWeather(order)) return NO_EXTREMES;
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule) return NO_EXTREMES;
  const locations = await getOrderLocations(ctx.db, order.id);
  const cycle = orderCycleAt(rule, locations, index, order.confirmedAt);
  if (!cycle) return NO_EXTREMES;
  const byId = new Map(locations.map((l) => [l.id, l]));
  const windows = locationCycles(cycle).flatMap(({ locationId, cycle: c }) => {
    const location = byId.get(locationId);
    // A window already over is "missed" whatever the weather; no need to ask.
    return location && Date.parse(c.ends_at) > now.getTime() ? [{ location, from: new Date(c.starts_at), to: new Date(c.ends_at) }] : [];
  });
  const provider = weatherProvider(ctx);
  const found = new Map<string, ExtremeWeather & { source: string }>();
  const unknown: { location_id: string; reason: string }[] = [];
  let next = 0;
  const ask = async () => {
    for (let i = next++; i < windows.length; i = next++) {
      const window = windows[i];
      if (!window) continue;
      const forecast = await provider.forecast({ lat: window.location.lat, lng: window.location.lng, from: window.from, to: window.to });
      if (forecast.hours === null) {
        unknown.push({ location_id: window.location.id, reason: forecast.reason });
        continue;
      }
      const extreme = extremeWeather(forecast.hours);
      if (extreme) found.set(window.location.id, { ...extreme, source: forecast.source });
    }
  };
  await Promise.all(Array.from({ length: Math.min(FORECAST_CONCURRENCY, windows.length) }, ask));
  if (unknown.length > 0) {
    log.warn("order cycle: no forecast for some locations; they are dispatched", {
      order_id: orderId,
      cycle_index: index,
      locations: unknown.length,
      first_reason: unknown[0]?.reason,
    });
  }
  return found;
}

/**
 * Runs cycle `index` of a recurring order inside the caller's transaction (order row locked):
 * dispatch or skip it, then queue the next one. Does nothing for a stale job.
 */
export async function runCycleInTx(
  tx: Db,
  ctx: ServiceContext,
  order: OrderRow,
  index: number,
  now = new Date(),
  extreme: ExtremeForecasts = NO_EXTREMES,
): Promise<void> {
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule || !order.confirmedAt) return;
  if ((order.status !== "active" && order.status !== "paused") || order.nextCycleIndex !== index) return;
  const locations = await getOrderLocations(tx, order.id);
  const cycle = orderCycleAt(rule, locations, index, order.confirmedAt);
  if (cycle) {
    const lastEnd = Math.max(...cycle.windows.map((w) => Date.parse(w.cycle.ends_at)));
    if (order.status === "paused") await skipCycle(tx, order, cycle, "paused", order.statusReason ?? "The order is paused.");
    else if (lastEnd <= now.getTime()) await skipCycle(tx, order, cycle, "missed", "The cycle's window had closed before it could be dispatched.");
    else await dispatchRecurringCycle(tx, ctx, order, locations, cycle, now, extreme);
  }
  const from = cycle ? new Date(Math.min(...cycle.windows.map((w) => Date.parse(w.cycle.starts_at)))) : now;
  const [next] = nextOrderCycles(rule, locations, { from, count: 1, anchor: order.confirmedAt, afterIndex: index });
  if (!next) {
    await tx
      .update(orders)
      .set({ status: "ended", statusReason: "The last cycle was dispatched.", nextCycleIndex: -1, updatedAt: now })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, { orgId: order.orgId, type: "order.ended", orderId: order.id, data: { order_id: order.id, reason: "last_cycle" } });
    // A cycle paid but never run (missed, skipped) is not kept once nothing is left to run.
    await refundUndispatchedCycles(tx, ctx, order, "cycle_not_run");
    return;
  }
  await tx.update(orders).set({ nextCycleIndex: next.index, updatedAt: now }).where(eq(orders.id, order.id));
  await enqueueJob(tx, ORDERS_QUEUE, { order_id: order.id, cycle_index: next.index }, { runAt: next.dispatchAt, maxAttempts: 20 });
}

/** The job handler of the `orders` queue. */
export async function runOrderCycle(ctx: ServiceContext, orderId: string, index: number): Promise<void> {
  const extreme = await extremeForecastsOf(ctx, orderId, index);
  await ctx.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1).for("update");
    if (order) await runCycleInTx(tx, ctx, order, index, new Date(), extreme);
  });
  ctx.wakeWorkers("webhooks");
}

/** The next cycle of an active or paused recurring order, for the order's representation. */
export function nextCycleOf(order: OrderRow, locations: OrderLocationRow[]) {
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  if (!rule || !order.confirmedAt || (order.status !== "active" && order.status !== "paused") || order.nextCycleIndex < 0) return null;
  const cycle = orderCycleAt(rule, locations, order.nextCycleIndex, order.confirmedAt);
  return cycle ? { index: cycle.index, local_date: cycle.localDate, dispatch_at: cycle.dispatchAt.toISOString() } : null;
}
