// From a create-order body to what pricing and creation need: each location with its id, its
// merged requirements and its time zone; the recurrence checked as a whole; and the quote at the
// current price list, plan and month's use.
import { getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { queryRows, type Db } from "@/lib/db/client";
import type { Plan } from "@/lib/db/schema";
import { timeZoneAt } from "@/lib/geo/time-zone";
import { createId } from "@/lib/ids/create-id";
import type { DeliveryEstimate } from "@/lib/orders/delivery-estimate";
import { locationPromise } from "@/lib/orders/delivery-promise";
import type { CreateOrderInput, PricedQuote, Quote, Requirements } from "@/lib/schemas/order";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { estimateDelivery } from "./assess-feasibility";
import { checkedDeliveryUrl } from "./check-delivery-url";
import { computeQuote, mergeRequirements } from "./compute-quote";
import { UNCONFIRMED } from "./order-states";
import { PLAN_TERMS, monthStart } from "./plans";
import { getPriceList } from "./price-list";
import { nextOrderCycles, orderScheduleProblems, type ScheduledLocation } from "./cycles/order-cycles";
import { recurrenceRuleOf } from "./cycles/recurrence-rule-of";
import { validateRule, type RecurrenceRule } from "./cycles/cycle-calendar";

export interface PreparedLocation {
  location_id: string;
  name: string;
  lat: number;
  lng: number;
  timeZone: string;
  requirements: Requirements;
}

export type DeliveryPromise = NonNullable<Quote["delivery_promise"]>;

export interface PreparedOrder {
  input: CreateOrderInput;
  locations: PreparedLocation[];
  rule: RecurrenceRule | null;
}

/**
 * The body checked as a whole at `now`: a recurrence must be valid, keep its event dates within
 * today … two years ahead, and leave at least one cycle to run — an order that can never be
 * dispatched is refused here rather than charged at confirmation (422, pointing at the member
 * that empties the schedule).
 */
export function prepareOrder(input: CreateOrderInput, now: Date): PreparedOrder {
  const rule = recurrenceRuleOf(input.recurring);
  if (rule) {
    const problems = validateRule(rule);
    if (problems.length > 0) {
      throw new ApiError(422, "validation_failed", "The recurrence is not valid; see errors[].", {
        errors: problems.map((message) => ({ pointer: "/recurring", in: "body" as const, message })),
      });
    }
  }
  const locations = input.locations.map((location) => ({
    location_id: location.location_id ?? createId("location"),
    name: location.name,
    lat: location.coordinates.lat,
    lng: location.coordinates.lng,
    timeZone: timeZoneAt(location.coordinates.lat, location.coordinates.lng),
    requirements: mergeRequirements(input.requirements, location.requirements),
  }));
  if (rule) {
    const problems = orderScheduleProblems(rule, scheduledLocations(locations), now);
    if (problems.length > 0) {
      const dates = problems.every((p) => p.kind === "date_window");
      throw new ApiError(
        422,
        "validation_failed",
        dates ? "Event dates run from today to two years ahead; see errors[]." : "The schedule has no cycle left to run; see errors[].",
        {
          errors: problems.map(({ pointer, message }) => ({ pointer, in: "body" as const, message })),
        },
      );
    }
  }
  return { input, locations, rule };
}

function scheduledLocations(locations: PreparedLocation[]): ScheduledLocation[] {
  return locations.map((l) => ({ id: l.location_id, lat: l.lat, lng: l.lng, timeZone: l.timeZone, requirements: l.requirements }));
}

/** A recurring order's next `count` cycles as they would fall if it were confirmed at `now`; null for a one-off order. */
export function previewCycles(prepared: PreparedOrder, now: Date, count: number): { index: number; local_date: string; dispatch_at: string }[] | null {
  if (!prepared.rule) return null;
  return nextOrderCycles(prepared.rule, scheduledLocations(prepared.locations), { from: now, count, anchor: now })
    .slice(0, count)
    .map((cycle) => ({ index: cycle.index, local_date: cycle.localDate, dispatch_at: cycle.dispatchAt.toISOString() }));
}

/**
 * The plan's monthly quota counts photos that are or were going to be delivered, so money given
 * back gives its quota back too:
 * - photos of order missions dispatched this calendar month (UTC) that are live or delivered — a
 *   mission cancelled undelivered (the order cancelled, the location given up; both refunded)
 *   counts no more;
 * - photos held by confirmations in flight: a charge recorded but not yet settled holds its
 *   order's cycle photos, so two confirmations (each under the organisation's lock when it checks
 *   and when it dispatches) cannot both pass on the same room.
 * One SQL expression for the organisation `orgId` (a value or a column), used by every reader.
 */
export function photosUsedSql(orgId: string | AnyPgColumn, now: Date): SQL<number> {
  const since = monthStart(now).toISOString();
  // Table-qualified throughout: drizzle drops qualifiers in a one-table select, where an unqualified
  // "id" inside these subqueries would silently mean the mission's or the payment's own id.
  const org = typeof orgId === "string" ? sql`${orgId}` : sql`${sql.identifier(getTableName(orgId.table))}.${sql.identifier(orgId.name)}`;
  const unconfirmed = sql.join(
    UNCONFIRMED.map((status) => sql`${status}`),
    sql`, `,
  );
  return sql<number>`(
    coalesce((select sum(quota_m.required_images) from missions quota_m
      where quota_m.org_id = ${org} and quota_m.order_id is not null
        and quota_m.status in ('active', 'completed') and quota_m.created_at >= ${since}::timestamptz), 0)
    + coalesce((select sum((quota_o.quote ->> 'photos_per_cycle')::int) from payments quota_p
      join orders quota_o on quota_o.id = quota_p.order_id
      where quota_p.org_id = ${org} and quota_p.kind = 'charge' and quota_p.status = 'processing'
        and quota_o.status in (${unconfirmed})), 0)
  )`;
}

/** What the plan's quota counts this month for the organisation (see photosUsedSql). */
export async function photosUsedThisMonth(db: Db, orgId: string, now = new Date()): Promise<number> {
  const [row] = await queryRows<{ photos: string | number | null }>(db, sql`select ${photosUsedSql(orgId, now)} as photos`);
  return Number(row?.photos ?? 0);
}

const HOUR_MS = 3_600_000;
const hoursBetween = (from: Date, to: Date) => Math.round(((to.getTime() - from.getTime()) / HOUR_MS) * 100) / 100;

/**
 * The promise the quote states if the order were paid at `now`: for a one-off order the later of
 * now + the plan's hours and the estimate's deliver_by; for a recurring one its first cycle's, the
 * later of each window's end and its start + the estimate's p90 (the latest over its windows).
 */
export function statedPromise({
  prepared,
  plan,
  estimate,
  now,
}: {
  prepared: PreparedOrder;
  plan: Plan;
  estimate: DeliveryEstimate | null;
  now: Date;
}): DeliveryPromise | null {
  const openings = prepared.rule
    ? (nextOrderCycles(prepared.rule, scheduledLocations(prepared.locations), { from: now, count: 1, anchor: now })[0]?.windows ?? []).map((w) => ({
        opensAt: new Date(Math.max(now.getTime(), Date.parse(w.cycle.starts_at))),
        planDeadline: new Date(w.cycle.ends_at),
      }))
    : [{ opensAt: now, planDeadline: new Date(now.getTime() + PLAN_TERMS[plan].deliveryHours * HOUR_MS) }];
  const promises = openings.map((o) => ({ ...o, ...locationPromise({ estimate, ...o }) }));
  const latest = promises.reduce<(typeof promises)[number] | null>((a, b) => (a === null || b.deliverBy > a.deliverBy ? b : a), null);
  if (!latest) return null;
  return {
    deliver_by: latest.deliverBy.toISOString(),
    hours: hoursBetween(latest.opensAt, latest.deliverBy),
    source: latest.source,
    expected_take_hours: hoursBetween(latest.opensAt, latest.expectedTakeBy),
  };
}

/**
 * The quote an order keeps: its price at the current price list, plan and month's use, when it
 * would be delivered (the order's estimate, as POST /orders/feasibility gives it) and the promise
 * that follows, if it were paid at `now`.
 */
export async function quoteOrder(
  ctx: ServiceContext,
  { orgId, plan }: { orgId: string; plan: Plan },
  prepared: PreparedOrder,
  now = new Date(),
): Promise<Quote> {
  const places = prepared.locations.map((l) => ({
    lat: l.lat,
    lng: l.lng,
    timeZone: l.timeZone,
    ...(l.requirements.time_of_day ? { timeOfDay: l.requirements.time_of_day } : {}),
  }));
  const [priced, delivery] = await Promise.all([
    priceOrder(ctx, { orgId, plan }, prepared, now),
    // Only the first window matters here: it is when a recurring order's estimate starts.
    estimateDelivery(ctx, { places, names: prepared.locations.map((l) => l.name), rule: prepared.rule, now, windowCount: 1 }),
  ]);
  return {
    ...priced,
    delivery_estimate: delivery.estimate,
    delivery_estimate_reasons: delivery.reasons,
    delivery_promise: statedPromise({ prepared, plan, estimate: delivery.estimate, now }),
  };
}

async function priceOrder(ctx: ServiceContext, { orgId, plan }: { orgId: string; plan: Plan }, prepared: PreparedOrder, now: Date): Promise<PricedQuote> {
  // An unlimited plan's quote shows the month's use too, but nothing depends on it: skip the sum.
  const unlimited = PLAN_TERMS[plan].photosPerMonth === null;
  const [{ prices, updatedAt }, used] = await Promise.all([getPriceList(ctx.db), unlimited ? Promise.resolve(0) : photosUsedThisMonth(ctx.db, orgId, now)]);
  return computeQuote({
    category: prepared.input.category,
    locations: prepared.locations,
    recurring: prepared.input.recurring ?? null,
    plan,
    prices,
    priceListUpdatedAt: updatedAt,
    photosUsedThisMonth: used,
    now,
  });
}

/** How many of a recurring order's next cycles a quote shows. */
export const QUOTE_PREVIEW_CYCLES = 4;

/**
 * POST /orders/quote: what the order would cost, when it would be delivered and what is promised
 * (as the order created from it states them) and, for a recurring order, its next `cycles` cycles
 * if confirmed now. Validates as create does (the schedule, the delivery URL); creates nothing.
 */
export async function quoteOrderPreview(ctx: ServiceContext, options: { caller: { orgId: string; plan: Plan }; input: CreateOrderInput; cycles: number }) {
  const now = new Date();
  const prepared = prepareOrder(options.input, now);
  await checkedDeliveryUrl(ctx, options.input);
  const quote = await quoteOrder(ctx, options.caller, prepared, now);
  return { ...quote, next_cycles: previewCycles(prepared, now, options.cycles) };
}
