// Read views of an order: the order itself, its missions, its delivered photos and its schedule.
import { and, asc, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { assignments, images, missions, orderCycles } from "@/lib/db/schema";
import type { Angle } from "@/lib/orders/vocabulary";
import type { Order, Quote } from "@/lib/schemas/order";
import type { StoredVerification } from "@/lib/service/assignments/field-assignments";
import type { ServiceContext } from "@/lib/service/context";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { deliveredPhotoRecord } from "./deliver-location";
import { getOrderLocations, getOrderRow, loadOrderExtras, serializeOrder, type OrderRow } from "./order-rows";
import { nextOrderCycles } from "./order-schedule";
import { recurrenceRuleOf } from "./recurrence";
import { nextCycleOf } from "./run-order-cycle";
import { describeRule } from "./schedule";

export async function orderView(ctx: ServiceContext, row: OrderRow): Promise<Order> {
  const locations = await getOrderLocations(ctx.db, row.id);
  return serializeOrder(ctx, row, await loadOrderExtras(ctx, row, locations, nextCycleOf(row, locations)));
}

export async function getOrder(ctx: ServiceContext, orgId: string, id: string): Promise<Order> {
  return orderView(ctx, await getOrderRow(ctx.db, orgId, id));
}

export async function listOrderMissions(ctx: ServiceContext, orgId: string, id: string, page: number, perPage: number) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(missions.orderId, id), eq(missions.orgId, orgId));
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(missions).where(condition).orderBy(desc(missions.cycleIndex), asc(missions.createdAt), asc(missions.id)).limit(perPage).offset((page - 1) * perPage),
    ctx.db.select({ total: count() }).from(missions).where(condition),
  ]);
  return { data: rows.map(serializeMission), meta: { total: totals[0]?.total ?? 0, page, per_page: perPage } };
}

/** Delivered photos of the order, oldest first, in the spec's Delivered photo record. */
export async function listOrderPhotos(ctx: ServiceContext, orgId: string, id: string, page: number, perPage: number) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(assignments.orderId, id), eq(assignments.orgId, orgId), isNotNull(assignments.deliveredAt));
  const [rows, totals] = await Promise.all([
    ctx.db
      .select({ assignment: assignments, image: images })
      .from(assignments)
      .innerJoin(images, eq(images.id, assignments.imageId))
      .where(condition)
      .orderBy(asc(assignments.deliveredAt), asc(assignments.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    ctx.db.select({ total: count() }).from(assignments).where(condition),
  ]);
  return { data: rows.map((r) => deliveredPhotoRecord(ctx, r.assignment, r.image)), meta: { total: totals[0]?.total ?? 0, page, per_page: perPage } };
}

/** The order's field work, for the partner: each location × angle and attempt, late or not, with its verification. */
export async function listOrderAssignments(ctx: ServiceContext, orgId: string, id: string, page: number, perPage: number) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(assignments.orderId, id), eq(assignments.orgId, orgId));
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(assignments).where(condition).orderBy(desc(assignments.cycleIndex), asc(assignments.locationId), asc(assignments.angle), asc(assignments.attempt)).limit(perPage).offset((page - 1) * perPage),
    ctx.db.select({ total: count() }).from(assignments).where(condition),
  ]);
  const data = rows.map((a) => ({
    id: a.id,
    mission_id: a.missionId,
    location_id: a.locationId,
    cycle_index: a.cycleIndex,
    angle: a.angle as Angle,
    attempt: a.attempt,
    status: a.status,
    late: a.late,
    deadline_at: a.deadlineAt.toISOString(),
    zoomer_id: a.zoomerId,
    photo_id: a.imageId,
    instructions: a.instructions as string[],
    verification: a.verification as StoredVerification | null,
    delivered_at: a.deliveredAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  }));
  return { data, meta: { total: totals[0]?.total ?? 0, page, per_page: perPage } };
}

export async function orderSchedule(ctx: ServiceContext, orgId: string, id: string, count: number) {
  const order = await getOrderRow(ctx.db, orgId, id);
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  const locations = await getOrderLocations(ctx.db, id);
  const quote = order.quote as Quote;
  if (!rule) return null;
  const now = new Date();
  const ended = order.status === "ended" || order.status === "cancelled" || order.status === "expired";
  // Before confirmation the numbering is a preview anchored now; afterwards it is the order's.
  const cycles = ended ? [] : nextOrderCycles(rule, locations, { from: now, count, anchor: order.confirmedAt ?? now });
  const done = cycles.length
    ? await ctx.db
        .select()
        .from(orderCycles)
        .where(and(eq(orderCycles.orderId, id), inArray(orderCycles.index, cycles.map((c) => c.index))))
    : [];
  const byIndex = new Map(done.map((c) => [c.index, c]));
  const first = locations[0];
  return {
    order_id: id,
    description: describeRule(rule, first ? { lat: first.lat } : undefined),
    status: order.status,
    photos_per_cycle: quote.photos_per_cycle,
    cycles: cycles.map((c) => ({
      index: c.index,
      local_date: c.localDate,
      status: byIndex.get(c.index)?.status ?? ("scheduled" as const),
      skip_reason: byIndex.get(c.index)?.skipReason ?? null,
      dispatch_at: c.dispatchAt.toISOString(),
      windows: c.windows.map((w) => ({
        time_zone: w.cycle.time_zone,
        local_window: w.cycle.local_window,
        crosses_midnight: w.cycle.crosses_midnight,
        starts_at: w.cycle.starts_at,
        ends_at: w.cycle.ends_at,
        location_ids: w.group.locationIds,
      })),
    })),
  };
}
