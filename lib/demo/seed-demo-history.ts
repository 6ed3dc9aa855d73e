// Writes the demo's past (demo-history.ts) into the real tables, as dispatch and delivery leave
// them: fulfilled one-off orders (client_reference "demo-history-<day>-<n>") with their locations, cycle,
// charge, completed missions and the simulated contributor's assignments — verified, or failed and
// retaken — with the times delivery-history.ts reads. The photos themselves are not kept (the demo
// keeps photo files for a day); the times, verdicts and promises are. Once per organisation: a
// later start finds the history and writes nothing. The demo's retention sweep keeps these orders.
import { createHash } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { apiClients, assignments, deliveryPromises, missions, orderCycles, orderLocations, orders, organisations, payments } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { timeZoneAt } from "@/lib/geo/time-zone";
import type { ServiceContext } from "@/lib/service/context";
import { orderMissionRow } from "@/lib/service/orders/cycles/order-mission-row";
import type { PricedQuote, Quote } from "@/lib/schemas/order";
import { computeQuote } from "@/lib/service/orders/compute-quote";
import { PLAN_TERMS } from "@/lib/service/orders/plans";
import { getPriceList } from "@/lib/service/orders/price-list";
import { DEMO_HISTORY_DAYS, HISTORY_REFERENCE, planDemoHistory, type PastOrder } from "./demo-history";

const DAY = 86_400_000;

export interface SeededHistory {
  orders: number;
  locations: number;
  /** Locations delivered after their promise. */
  late: number;
}

/** The simulated contributor's zoomer id, from its client id. */
async function zoomerIdOf(ctx: Pick<ServiceContext, "db">, clientId: string): Promise<string | null> {
  const [row] = await ctx.db.select({ zoomerId: apiClients.zoomerId }).from(apiClients).where(eq(apiClients.id, clientId)).limit(1);
  return row?.zoomerId ?? null;
}

function rowsOf(
  order: PastOrder,
  {
    orgId,
    zoomerId,
    cardOnFile,
    deliveryHours,
    quote,
  }: {
    orgId: string;
    zoomerId: string | null;
    cardOnFile: string;
    deliveryHours: number;
    quote: ReturnType<typeof computeQuote>;
  },
) {
  const id = createId("order", order.placedAt.getTime());
  const placed = order.placedAt;
  const deadline = new Date(placed.getTime() + deliveryHours * 3_600_000);
  const locationRows = order.locations.map((l, position) => ({
    orderId: id,
    id: `loc_${l.place.key}`,
    position,
    name: l.place.name,
    lat: l.place.lat,
    lng: l.place.lng,
    timeZone: timeZoneAt(l.place.lat, l.place.lng),
    requirements: { angles: l.angles },
  }));
  const orderRef = { id, orgId, clientReference: order.reference, category: "cultural_exterior" };
  const missionRows = locationRows.map((location, i) => {
    const deliveredAt = order.locations[i]?.deliveredAt ?? order.fulfilledAt;
    return {
      ...orderMissionRow({ order: orderRef, location, cycleIndex: 0, deadline, now: placed }),
      status: "completed" as const,
      approvedImageCount: location.requirements.angles.length,
      updatedAt: deliveredAt,
      completedAt: deliveredAt,
    };
  });
  const assignmentRows = order.locations.flatMap((l, i) => {
    const mission = missionRows[i];
    if (!mission) return [];
    return l.shots.map((shot) => {
      // A retake opens when the shot before it failed verification.
      const failedBefore = l.shots.find((s) => s.angle === shot.angle && s.attempt === shot.attempt - 1);
      return {
        id: createId("assignment", shot.takenAt.getTime()),
        orgId,
        orderId: id,
        missionId: mission.id,
        locationId: mission.locationId,
        cycleIndex: 0,
        angle: shot.angle,
        attempt: shot.attempt,
        status: shot.passed ? ("verified" as const) : ("failed" as const),
        zoomerId,
        lat: l.place.lat,
        lng: l.place.lng,
        timeZone: "Europe/Rome",
        deadlineAt: deadline,
        late: shot.takenAt > deadline,
        instructions: shot.attempt > 0 ? [`Face the ${shot.angle === "overview" ? "place" : shot.angle}: the first photo faced away from it.`] : [],
        deliveredAt: shot.passed ? l.deliveredAt : null,
        // A first task left untaken past the expected take time was escalated then.
        escalatedAt: shot.attempt === 0 && shot.takenAt > l.promise.expectedTakeBy ? l.promise.expectedTakeBy : null,
        createdAt: failedBefore ? failedBefore.verifiedAt : placed,
        updatedAt: shot.verifiedAt,
        completedAt: shot.verifiedAt,
      };
    });
  });
  const photos = order.locations.reduce((sum, l) => sum + l.angles.length, 0);
  return {
    order: {
      id,
      orgId,
      clientReference: orderRef.clientReference,
      category: orderRef.category,
      description: `${order.description} (Demo history: the photos are no longer kept.)`,
      status: "fulfilled" as const,
      requirements: { angles: order.locations[0]?.angles ?? [] },
      recurring: null,
      delivery: {},
      quote,
      currency: quote.currency,
      paymentMethod: cardOnFile,
      nextCycleIndex: 1,
      createdAt: placed,
      updatedAt: order.fulfilledAt,
      confirmedAt: placed,
      fulfilledAt: order.fulfilledAt,
      expiresAt: new Date(placed.getTime() + 7 * DAY),
    },
    locations: locationRows,
    cycle: {
      orderId: id,
      orgId,
      index: 0,
      status: "dispatched" as const,
      localDate: placed.toISOString().slice(0, 10),
      startsAt: placed,
      endsAt: deadline,
      photos,
      completedAt: order.fulfilledAt,
      createdAt: placed,
    },
    payment: {
      id: createId("payment", placed.getTime()),
      orgId,
      orderId: id,
      kind: "charge" as const,
      cycleIndex: 0,
      amountCents: quote.total_cents,
      currency: quote.currency,
      status: "succeeded" as const,
      paymentMethod: cardOnFile,
      provider: "test_card_processor",
      providerReference: `ch_test_${createHash("sha256").update(id).digest("hex").slice(0, 24)}`,
      createdAt: placed,
      updatedAt: placed,
    },
    missions: missionRows,
    promises: promiseRows(order, { orderId: id, orgId, missionIds: missionRows.map((m) => m.id) }),
    assignments: assignmentRows,
  };
}

/** The quote as the order stated it before payment: its price, the order's estimate then and the promise that followed. */
function statedQuote(order: PastOrder, priced: PricedQuote): Quote {
  const first = order.locations[0];
  const hours = (to: Date) => Math.round(((to.getTime() - order.placedAt.getTime()) / 3_600_000) * 10) / 10;
  return {
    ...priced,
    delivery_estimate: order.estimate,
    delivery_estimate_reasons: order.estimateReasons,
    delivery_promise: first
      ? {
          deliver_by: first.promise.deliverBy.toISOString(),
          hours: hours(first.promise.deliverBy),
          source: first.promise.source,
          expected_take_hours: hours(first.promise.expectedTakeBy),
        }
      : null,
  };
}

/** Where each location stood against its promise, as the service's sweep and delivery would have left it. */
function promiseRows(order: PastOrder, { orderId, orgId, missionIds }: { orderId: string; orgId: string; missionIds: string[] }) {
  return order.locations.flatMap((l, i) => {
    const missionId = missionIds[i];
    if (!missionId) return [];
    const { deliverBy, expectedTakeBy } = l.promise;
    const firstTaken = new Date(Math.min(...l.shots.filter((s) => s.attempt === 0).map((s) => s.takenAt.getTime())));
    const escalated = firstTaken > expectedTakeBy ? expectedTakeBy : null;
    const late = l.deliveredAt > deliverBy;
    return [
      {
        orderId,
        locationId: `loc_${l.place.key}`,
        cycleIndex: 0,
        orgId,
        missionId,
        opensAt: order.placedAt,
        expectedTakeBy,
        deliverBy,
        status: late ? ("delivered_late" as const) : ("delivered_on_time" as const),
        escalatedAt: escalated,
        atRiskAt: escalated,
        lateAt: late ? deliverBy : null,
        deliveredAt: l.deliveredAt,
        createdAt: order.placedAt,
        updatedAt: l.deliveredAt,
      },
    ];
  });
}

/**
 * Seeds DEMO_HISTORY_DAYS days of history before `now` for the demo organisation, unless it has
 * history already. Returns what was written (nothing on a later start).
 */
export async function seedDemoHistory(
  ctx: Pick<ServiceContext, "db">,
  { orgId, zoomerClientId, now = new Date(), days = DEMO_HISTORY_DAYS }: { orgId: string; zoomerClientId: string; now?: Date; days?: number },
): Promise<SeededHistory> {
  const none: SeededHistory = { orders: 0, locations: 0, late: 0 };
  const [existing] = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.orgId, orgId), like(orders.clientReference, `${HISTORY_REFERENCE}-%`)))
    .limit(1);
  if (existing) return none;
  const [org] = await ctx.db
    .select({ plan: organisations.plan, cardOnFile: organisations.cardOnFile })
    .from(organisations)
    .where(eq(organisations.id, orgId))
    .limit(1);
  if (!org) return none;
  const deliveryHours = PLAN_TERMS[org.plan].deliveryHours;
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const planned = planDemoHistory({
    from: new Date(today.getTime() - days * DAY),
    to: today,
    now,
    deliveryHours,
  });
  if (planned.length === 0) return none;
  const [zoomerId, { prices, updatedAt }] = await Promise.all([zoomerIdOf(ctx, zoomerClientId), getPriceList(ctx.db)]);
  const rows = planned.map((order) =>
    rowsOf(order, {
      orgId,
      zoomerId,
      cardOnFile: org.cardOnFile,
      deliveryHours,
      quote: statedQuote(
        order,
        computeQuote({
          category: "cultural_exterior",
          locations: order.locations.map((l) => ({
            location_id: `loc_${l.place.key}`,
            name: l.place.name,
            requirements: { angles: l.angles },
          })),
          recurring: null,
          plan: org.plan,
          prices,
          priceListUpdatedAt: updatedAt,
          photosUsedThisMonth: 0,
          now: order.placedAt,
        }),
      ),
    }),
  );
  await ctx.db.transaction(async (tx) => {
    await tx.insert(orders).values(rows.map((r) => r.order));
    await tx.insert(orderLocations).values(rows.flatMap((r) => r.locations));
    await tx.insert(orderCycles).values(rows.map((r) => r.cycle));
    await tx.insert(payments).values(rows.map((r) => r.payment));
    await tx.insert(missions).values(rows.flatMap((r) => r.missions));
    await tx.insert(assignments).values(rows.flatMap((r) => r.assignments));
    await tx.insert(deliveryPromises).values(rows.flatMap((r) => r.promises));
  });
  const locations = planned.flatMap((o) => o.locations);
  return {
    orders: planned.length,
    locations: locations.length,
    late: locations.filter((l) => l.deliveredAt > l.deliverBy).length,
  };
}
