// Read views of an order: the order itself, its missions, its delivered photos and its schedule.
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { distance, point } from "@turf/turf";
import { images, missions, orderCycles, submissions } from "@/lib/db/schema";
import type { Angle, Order, Quote } from "@/lib/schemas/order";
import type { QaCheck } from "@/lib/schemas/qa";
import type { ServiceContext } from "@/lib/service/context";
import { signImageUrl } from "@/lib/service/cdn/signed-url";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { LOCATION_RADIUS_M } from "./dispatch-cycle";
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

/** Links in delivered-photo records stay valid for days (the spec's record is sent by webhook). */
const DELIVERY_URL_TTL_SECONDS = 7 * 86_400;

/**
 * Photos of the order's missions that passed QA, in the spec's Delivered photo record. Until the
 * fulfilment checks land, `verification.ai_checks` carries what is measured today: the distance
 * from the ordered point (location_match) and the mission QA (quality).
 */
export async function listOrderPhotos(ctx: ServiceContext, orgId: string, id: string, page: number, perPage: number) {
  await getOrderRow(ctx.db, orgId, id);
  const locations = new Map((await getOrderLocations(ctx.db, id)).map((l) => [l.id, l]));
  const condition = and(eq(missions.orderId, id), eq(images.orgId, orgId), eq(submissions.status, "approved"));
  const base = ctx.db
    .select({ image: images, missionId: missions.id, locationId: missions.locationId, angle: submissions.angle })
    .from(images)
    .innerJoin(submissions, eq(submissions.id, images.submissionId))
    .innerJoin(missions, eq(missions.id, images.missionId));
  const [rows, totals] = await Promise.all([
    base.where(condition).orderBy(asc(images.createdAt), asc(images.id)).limit(perPage).offset((page - 1) * perPage),
    ctx.db
      .select({ total: count() })
      .from(images)
      .innerJoin(submissions, eq(submissions.id, images.submissionId))
      .innerJoin(missions, eq(missions.id, images.missionId))
      .where(condition),
  ]);
  const sign = { secret: ctx.cdnSecret, origin: ctx.config.publicOrigin, ttlSeconds: DELIVERY_URL_TTL_SECONDS };
  const data = rows.map(({ image, missionId, locationId, angle }) => {
    const location = locations.get(locationId ?? "");
    const gps = image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng } : null;
    const metres = gps && location ? distance(point([location.lng, location.lat]), point([gps.lng, gps.lat]), { units: "meters" }) : null;
    const allowed = LOCATION_RADIUS_M + (image.accuracyM ?? 0);
    const qa = (image.qa as QaCheck[] | null) ?? [];
    const qaPassed = qa.filter((check) => check.passed).length;
    const requested = (location?.requirements as { angles?: Angle[] } | undefined)?.angles ?? [];
    return {
      photo_id: image.id,
      order_id: id,
      mission_id: missionId,
      location_id: locationId ?? "",
      url: signImageUrl(image.id, "original", sign),
      thumbnail: signImageUrl(image.id, image.thumbnailKey ? "thumbnail" : "original", sign),
      angle: (requested.find((a) => a === angle) ?? requested[0] ?? "front") as Angle,
      metadata: { captured_at: image.capturedAt?.toISOString() ?? null, gps, weather: null },
      verification: {
        status: "approved" as const,
        ai_checks: {
          location_match: {
            score: metres === null ? 0 : Math.max(0, Math.min(1, 1 - metres / (2 * allowed))),
            passed: metres !== null && metres <= allowed,
            value_m: metres === null ? null : Math.round(metres * 10) / 10,
            threshold_m: allowed,
          },
          quality: { score: qa.length === 0 ? 0 : qaPassed / qa.length, passed: qa.length > 0 && qaPassed === qa.length },
        },
      },
    };
  });
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
