// Read views of an order: the order itself, its missions, its delivered photos and its schedule.
import { pageTotal } from "@/lib/db/page-total";
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { reusableQuery } from "@/lib/db/reusable-query";
import { assignments, images, missions, orderCycles, submissions } from "@/lib/db/schema";
import type { Angle } from "@/lib/orders/vocabulary";
import type { Order, Quote } from "@/lib/schemas/order";
import type { StoredVerification } from "@/lib/service/assignments/field-assignments";
import { cdnBaseUrl, type ServiceContext } from "@/lib/service/context";
import { signImageUrl } from "@/lib/service/cdn/signed-url";
import { ApiError } from "@/lib/service/errors";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import { deliveredPhotoRecord } from "./deliver-location";
import { withStoredEvidence } from "./photo-evidence";
import { instructionCodesOf } from "./retake-instructions";
import type { Db } from "@/lib/db/client";
import { getOrderLocations, getOrderRow, listOrderRows, loadOrderExtras, serializeOrder, type ListOrderFilters, type OrderRow } from "./order-rows";
import { nextOrderCycles } from "./cycles/order-cycles";
import { recurrenceRuleOf } from "./cycles/recurrence-rule-of";
import { nextCycleOf } from "./cycles/run-due-cycle";
import { describeRule } from "./cycles/cycle-calendar";

/** The representations of these orders, read from `db` (a snapshot's transaction, for consistency). */
export async function orderViews(ctx: ServiceContext, db: Db, rows: readonly OrderRow[]): Promise<Order[]> {
  const extras = await loadOrderExtras(db, rows);
  return rows.map((row) => {
    const own = extras.get(row.id) ?? { locations: [], payments: [], promises: [], missionCounts: { total: 0, active: 0, completed: 0, cancelled: 0 } };
    return serializeOrder(ctx, row, { ...own, nextCycle: nextCycleOf(row, own.locations) });
  });
}

/**
 * One order as of one moment: its row, locations, payments and missions are read in one
 * repeatable-read snapshot, so a cycle being dispatched is seen either wholly or not at all (its
 * missions never beside the previous `next_cycle`).
 */
export async function getOrder(ctx: ServiceContext, { orgId, orderId: id }: { orgId: string; orderId: string }): Promise<Order> {
  return ctx.db.transaction(
    async (tx) => {
      const [order] = await orderViews(ctx, tx, [await getOrderRow(tx, orgId, id)]);
      if (!order) throw new Error("the order's view is missing");
      return order;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** A page of the organisation's orders, newest first, read in one snapshot. */
export async function listOrders(
  ctx: ServiceContext,
  options: { orgId: string; filters: ListOrderFilters },
): Promise<{ data: Order[]; meta: { total: number; page: number; per_page: number } }> {
  const { orgId, filters } = options;
  return ctx.db.transaction(
    async (tx) => {
      const { rows, total } = await listOrderRows(tx, orgId, filters);
      return { data: await orderViews(ctx, tx, rows), meta: { total, page: filters.page, per_page: filters.perPage } };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Which order, and which page of what hangs off it. */
export interface OrderPageOptions {
  orgId: string;
  orderId: string;
  page: number;
  perPage: number;
}

export async function listOrderMissions(ctx: ServiceContext, { orgId, orderId: id, page, perPage }: OrderPageOptions) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(missions.orderId, id), eq(missions.orgId, orgId));
  const rows = await ctx.db
    .select()
    .from(missions)
    .where(condition)
    .orderBy(desc(missions.cycleIndex), asc(missions.createdAt), asc(missions.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const total = await pageTotal(
    rows.length,
    { page, perPage },
    async () => (await ctx.db.select({ total: count() }).from(missions).where(condition))[0]?.total ?? 0,
  );
  return { data: rows.map(serializeMission), meta: { total, page, per_page: perPage } };
}

// A page of the order's delivered photos with their images and submissions (three tables' columns
// to select and map): built once (reusable-query.ts).
const deliveredPhotoPage = reusableQuery("order_photos_page", (db) =>
  db
    .select({ assignment: assignments, image: images, submission: submissions })
    .from(assignments)
    .innerJoin(images, eq(images.id, assignments.imageId))
    .leftJoin(submissions, eq(submissions.id, assignments.submissionId))
    .where(and(eq(assignments.orderId, sql.placeholder("orderId")), eq(assignments.orgId, sql.placeholder("orgId")), isNotNull(assignments.deliveredAt)))
    .orderBy(asc(assignments.deliveredAt), asc(assignments.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
);

/** Delivered photos of the order, oldest first, in the spec's Delivered photo record. */
export async function listOrderPhotos(ctx: ServiceContext, { orgId, orderId: id, page, perPage }: OrderPageOptions) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(assignments.orderId, id), eq(assignments.orgId, orgId), isNotNull(assignments.deliveredAt));
  const rows = await deliveredPhotoPage(ctx.db, { orderId: id, orgId, limit: perPage, offset: (page - 1) * perPage });
  // Counted as the page is (delivered photos always have their image), so the two agree.
  const total = await pageTotal(
    rows.length,
    { page, perPage },
    async () => (await ctx.db.select({ total: count() }).from(assignments).where(condition))[0]?.total ?? 0,
  );
  const withEvidence = await withStoredEvidence(ctx, rows);
  return {
    data: withEvidence.map((r) => deliveredPhotoRecord(ctx, r.assignment, r.image, r.submission, r.evidence)),
    meta: { total, page, per_page: perPage },
  };
}

/** The order's field work, for the partner: each location × angle and attempt, late or not, with its verification. */
export async function listOrderAssignments(ctx: ServiceContext, { orgId, orderId: id, page, perPage }: OrderPageOptions) {
  await getOrderRow(ctx.db, orgId, id);
  const condition = and(eq(assignments.orderId, id), eq(assignments.orgId, orgId));
  const rows = await ctx.db
    .select()
    .from(assignments)
    .where(condition)
    .orderBy(desc(assignments.cycleIndex), asc(assignments.locationId), asc(assignments.angle), asc(assignments.attempt))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const total = await pageTotal(
    rows.length,
    { page, perPage },
    async () => (await ctx.db.select({ total: count() }).from(assignments).where(condition))[0]?.total ?? 0,
  );
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
    instruction_codes: instructionCodesOf(a.instructions as string[], a.instructionCodes),
    verification: a.verification as StoredVerification | null,
    delivered_at: a.deliveredAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
    review: reviewOf(ctx, a),
  }));
  return { data, meta: { total, page, per_page: perPage } };
}

/** How long the review's photo links work: the dashboard re-reads the list on every render. */
const REVIEW_URL_TTL_SECONDS = 3600;

/** A photo held for review (or once held): when, the decision, and links to look at it before it is delivered. */
function reviewOf(ctx: ServiceContext, a: typeof assignments.$inferSelect) {
  if (!a.heldAt || !a.imageId) return null;
  const sign = { secret: ctx.cdnSecret, cdnUrl: cdnBaseUrl(ctx.config), ttlSeconds: REVIEW_URL_TTL_SECONDS };
  return {
    held_at: a.heldAt.toISOString(),
    decision: a.reviewDecision,
    reviewed_at: a.reviewedAt?.toISOString() ?? null,
    photo_url: signImageUrl(a.imageId, "original", sign),
    preview_url: signImageUrl(a.imageId, "preview", sign),
  };
}

/** The next `count` cycles of a recurring order; 409 `order_not_recurring` for a one-off order. */
export async function getOrderSchedule(ctx: ServiceContext, { orgId, orderId: id, count }: { orgId: string; orderId: string; count: number }) {
  const order = await getOrderRow(ctx.db, orgId, id);
  const rule = recurrenceRuleOf(order.recurring as Parameters<typeof recurrenceRuleOf>[0]);
  const locations = await getOrderLocations(ctx.db, id);
  const quote = order.quote as Quote;
  if (!rule) throw new ApiError(409, "order_not_recurring", "This order is one-off: it has no schedule.");
  const now = new Date();
  const ended = order.status === "ended" || order.status === "cancelled" || order.status === "expired";
  // Before confirmation the numbering is a preview anchored now; afterwards it is the order's.
  const cycles = ended ? [] : nextOrderCycles(rule, locations, { from: now, count, anchor: order.confirmedAt ?? now });
  const done = cycles.length
    ? await ctx.db
        .select()
        .from(orderCycles)
        .where(
          and(
            eq(orderCycles.orderId, id),
            inArray(
              orderCycles.index,
              cycles.map((c) => c.index),
            ),
          ),
        )
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
