// Order work as zoomers see it: open assignments near where they stand (target, angle with what to
// shoot, distance and bearing from them, the local time window, the deadline, and for a retake what
// to do differently), and taking, giving back and listing their own. A reservation lasts a limited
// time and then the assignment is back in the pool; a zoomer holds a few at most, so nobody can
// hoard a location.
import type { z } from "zod";
import type { AssignmentVerificationSchema } from "@/lib/schemas/order";
import { and, eq, gt, gte, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import { assignments, orders } from "@/lib/db/schema";
import { bearingDeg, distanceM } from "@/lib/geo/bearing";
import { localParts } from "@/lib/geo/time-zone";
import { ANGLE_DESCRIPTIONS, CROWD_LEVELS, TIMES_OF_DAY, type Angle, type CrowdLevel, type TimeOfDay } from "@/lib/orders/vocabulary";
import { sunWindowOn } from "@/lib/service/orders/cycles/cycle-calendar";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import { recordEvent } from "@/lib/service/events/record-event";
import { instructionCodesOf } from "@/lib/service/orders/retake-instructions";

export const RESERVATION_MINUTES = 30;
export const MAX_RESERVATIONS_PER_ZOOMER = 6;
/**
 * An escalated task (left untaken past its expected take time) is offered this many times farther
 * than the radius a zoomer asks about, up to ESCALATED_MAX_KM, and listed before the others.
 */
export const ESCALATED_REACH_FACTOR = 5;
export const ESCALATED_MAX_KM = 200;

export type AssignmentRow = typeof assignments.$inferSelect;

/** What verification stores on an assignment (lib/service/orders/verify-assignment.ts), as the API shows it. */
export type StoredVerification = z.infer<typeof AssignmentVerificationSchema>;

const pad = (n: number) => String(n).padStart(2, "0");

function localTime(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}

const localDateOf = (instant: Date, timeZone: string) => localTime(instant, timeZone).slice(0, 10);
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The sun the task asks for, on the task's day: a cycle's own day (its window is already narrowed
 * to the sun), or for one-off work today's — tomorrow's once today's has passed. `starts_at` and
 * `ends_at` are null when the sun allows no time that day (polar night, no sunset).
 */
export function timeOfDayOf(row: Pick<AssignmentRow, "lat" | "lng" | "timeZone" | "windowStart">, timeOfDay: string | null, now: Date) {
  if (!timeOfDay || !(TIMES_OF_DAY as readonly string[]).includes(timeOfDay)) return null;
  const requirement = timeOfDay as TimeOfDay;
  const where = { lat: row.lat, lng: row.lng, timeZone: row.timeZone };
  let date = localDateOf(row.windowStart ?? now, row.timeZone);
  let sun = sunWindowOn(requirement, date, where);
  if (!row.windowStart && (!sun || sun.end <= now)) {
    date = nextDate(date);
    sun = sunWindowOn(requirement, date, where);
  }
  return {
    requirement,
    local_date: date,
    starts_at: sun?.start.toISOString() ?? null,
    ends_at: sun?.end.toISOString() ?? null,
    local: sun ? `${localTime(sun.start, row.timeZone).slice(11)}–${localTime(sun.end, row.timeZone).slice(11)}` : null,
  };
}

/** What the order asks of the photo beyond place, angle and time of day, as stored on the order and its location. */
export interface TaskAsks {
  timeOfDay: string | null;
  /** The recurring order's local hours, "HH:MM-HH:MM". */
  timeWindow: string | null;
  minimumCrowd: string | null;
  brand: string | null;
}

export function serializeFieldAssignment(
  row: AssignmentRow & { category: string; locationName: string; previousInstructionCodes?: unknown } & TaskAsks,
  from?: { lat: number; lng: number },
  now = new Date(),
) {
  const reservedByCaller = row.status === "reserved" && row.reservedUntil !== null && row.reservedUntil > now;
  return {
    id: row.id,
    status: row.status === "reserved" && !reservedByCaller ? "open" : row.status,
    category: row.category,
    location: { id: row.locationId, name: row.locationName, lat: row.lat, lng: row.lng, time_zone: row.timeZone },
    angle: row.angle as Angle,
    angle_description: ANGLE_DESCRIPTIONS[row.angle as Angle] ?? "",
    attempt: row.attempt,
    instructions: row.instructions as string[],
    // A retake's instructions as codes: its own, else (older rows) the failed attempt's verdict's, else English under `text`.
    instruction_codes: instructionCodesOf(row.instructions as string[], row.instructionCodes, row.previousInstructionCodes),
    window:
      row.windowStart && row.windowEnd
        ? {
            starts_at: row.windowStart.toISOString(),
            ends_at: row.windowEnd.toISOString(),
            local: `${localTime(row.windowStart, row.timeZone)} – ${localTime(row.windowEnd, row.timeZone).slice(11)}`,
          }
        : null,
    time_of_day: timeOfDayOf(row, row.timeOfDay, now),
    requirements: {
      time_window: row.timeWindow,
      minimum_crowd: (CROWD_LEVELS as readonly string[]).includes(row.minimumCrowd ?? "") ? (row.minimumCrowd as CrowdLevel) : null,
      brand: row.brand,
    },
    deadline_at: row.deadlineAt.toISOString(),
    deadline_local: localTime(row.deadlineAt, row.timeZone),
    reserved_until: reservedByCaller ? (row.reservedUntil?.toISOString() ?? null) : null,
    distance_m: from ? Math.round(distanceM(from, row)) : null,
    bearing_deg: from ? Math.round(bearingDeg(from, row)) : null,
    submission_id: row.submissionId,
    verification: forZoomer(row),
    escalated: row.escalatedAt !== null,
  };
}

/**
 * The zoomer sees the checks that tell them how to shoot, not the authenticity signals (they
 * would teach a faker what gave them away): a held photo shows only its state, needs review.
 */
function forZoomer(row: AssignmentRow): StoredVerification | null {
  const stored = row.verification as StoredVerification | null;
  if (!stored || row.status === "held_for_review") return null;
  const checks = Object.fromEntries(Object.entries(stored.ai_checks).filter(([name]) => name !== "authenticity"));
  return { ...stored, ai_checks: checks };
}

const withOrder = (ctx: ServiceContext) =>
  ctx.db
    .select({
      a: assignments,
      category: orders.category,
      locationName: sql<string>`(select name from order_locations l where l.order_id = ${assignments.orderId} and l.id = ${assignments.locationId})`,
      timeOfDay: sql<
        string | null
      >`(select l.requirements->>'time_of_day' from order_locations l where l.order_id = ${assignments.orderId} and l.id = ${assignments.locationId})`,
      // The failed attempt this one retakes: its verdict holds the instructions as codes.
      previousInstructionCodes: sql<unknown>`(select p.verification->'instruction_codes' from assignments p where p.order_id = ${assignments.orderId} and p.location_id = ${assignments.locationId} and p.cycle_index = ${assignments.cycleIndex} and p.angle = ${assignments.angle} and p.attempt = ${assignments.attempt} - 1)`,
      minimumCrowd: sql<
        string | null
      >`(select l.requirements->>'minimum_crowd' from order_locations l where l.order_id = ${assignments.orderId} and l.id = ${assignments.locationId})`,
      brand: sql<
        string | null
      >`(select l.requirements->>'brand_match' from order_locations l where l.order_id = ${assignments.orderId} and l.id = ${assignments.locationId})`,
      timeWindow: sql<string | null>`${orders.recurring}->>'time_window'`,
    })
    .from(assignments)
    .innerJoin(orders, eq(orders.id, assignments.orderId));

const joined = ({ a, ...order }: { a: AssignmentRow; category: string; locationName: string; previousInstructionCodes: unknown } & TaskAsks) => ({
  ...a,
  ...order,
});

/** Open work (or work whose reservation ran out), or the caller's own, inside a box around the point. */
function available(zoomerId: string, now: Date, box: { lat: number; lng: number; radiusKm: number }, escalatedOnly: boolean) {
  const dLat = box.radiusKm / 111.32;
  const dLng = box.radiusKm / (111.32 * Math.max(0.01, Math.cos((box.lat * Math.PI) / 180)));
  const untaken = or(eq(assignments.status, "open"), and(eq(assignments.status, "reserved"), lt(assignments.reservedUntil, now)));
  return and(
    escalatedOnly
      ? and(untaken, isNotNull(assignments.escalatedAt))
      : or(untaken, and(inArray(assignments.status, ["reserved", "submitted", "held_for_review"]), eq(assignments.zoomerId, zoomerId))),
    gte(assignments.lat, box.lat - dLat),
    lte(assignments.lat, box.lat + dLat),
    gte(assignments.lng, box.lng - dLng),
    lte(assignments.lng, box.lng + dLng),
  );
}

/**
 * Open (or reservation-expired) work within `radiusKm`, plus the caller's own, plus escalated work
 * (untaken past its expected take time) within ESCALATED_REACH_FACTOR × `radiusKm`: escalated work
 * first, then nearest first.
 */
export async function listFieldAssignments(
  ctx: ServiceContext,
  zoomerId: string,
  { lat, lng, radiusKm, limit }: { lat: number; lng: number; radiusKm: number; limit: number },
) {
  const now = new Date();
  const reachKm = Math.min(ESCALATED_MAX_KM, Math.max(radiusKm, radiusKm * ESCALATED_REACH_FACTOR));
  // Near work and escalated work from further away in one statement (two cost a third more); the
  // cap, a guard against a runaway area, keeps escalated work first.
  const found = await withOrder(ctx)
    .where(or(available(zoomerId, now, { lat, lng, radiusKm }, false), available(zoomerId, now, { lat, lng, radiusKm: reachKm }, true)))
    .orderBy(sql`${assignments.escalatedAt} is null`)
    .limit(2000);
  const rows = new Map(found.map((r) => [r.a.id, r]));
  const from = { lat, lng };
  return [...rows.values()]
    .map((r) => serializeFieldAssignment(joined(r), from, now))
    .filter((a) => (a.distance_m ?? 0) <= (a.escalated && a.status === "open" ? reachKm : radiusKm) * 1000)
    .sort((a, b) => Number(b.escalated) - Number(a.escalated) || (a.distance_m ?? 0) - (b.distance_m ?? 0) || a.deadline_at.localeCompare(b.deadline_at))
    .slice(0, limit);
}

export async function getFieldAssignment(ctx: ServiceContext, zoomerId: string, id: string) {
  const [row] = await withOrder(ctx).where(eq(assignments.id, id)).limit(1);
  if (!row) throw notFound("assignment");
  const mine = row.a.zoomerId === zoomerId;
  const available = row.a.status === "open" || (row.a.status === "reserved" && (row.a.reservedUntil ?? new Date(0)) < new Date());
  // Another zoomer's work is not theirs to see.
  if (!mine && !available) throw notFound("assignment");
  return serializeFieldAssignment(joined(row));
}

/** Reserves the assignment for this zoomer; one they hold already is answered unchanged (the reservation is not extended). */
export async function takeAssignment(ctx: ServiceContext, zoomerId: string, id: string) {
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [held] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(assignments)
      .where(and(eq(assignments.zoomerId, zoomerId), eq(assignments.status, "reserved"), gt(assignments.reservedUntil, now), sql`${assignments.id} <> ${id}`));
    if ((held?.n ?? 0) >= MAX_RESERVATIONS_PER_ZOOMER) {
      throw new ApiError(409, "too_many_reservations", `You hold ${MAX_RESERVATIONS_PER_ZOOMER} tasks already; submit or give one back first.`);
    }
    const until = new Date(now.getTime() + RESERVATION_MINUTES * 60_000);
    const [taken] = await tx
      .update(assignments)
      .set({ status: "reserved", zoomerId, reservedUntil: until, updatedAt: now })
      .where(and(eq(assignments.id, id), or(eq(assignments.status, "open"), and(eq(assignments.status, "reserved"), lt(assignments.reservedUntil, now)))))
      .returning();
    if (!taken) {
      const [exists] = await tx
        .select({ status: assignments.status, zoomerId: assignments.zoomerId, reservedUntil: assignments.reservedUntil })
        .from(assignments)
        .where(eq(assignments.id, id))
        .limit(1);
      if (!exists) throw notFound("assignment");
      // A task you hold already is answered as it is: taking it again never extends the reservation.
      if (exists.status === "reserved" && exists.zoomerId === zoomerId && (exists.reservedUntil ?? now) >= now) return;
      throw new ApiError(409, "assignment_not_available", "Someone else is on this task, or it is done.");
    }
    await recordEvent(tx, {
      orgId: taken.orgId,
      type: "order.assignment.assigned",
      orderId: taken.orderId,
      data: {
        order_id: taken.orderId,
        mission_id: taken.missionId,
        location_id: taken.locationId,
        assignment_id: taken.id,
        angle: taken.angle,
        attempt: taken.attempt,
        zoomer_id: zoomerId,
        reserved_until: until.toISOString(),
      },
    });
  });
  ctx.wakeWorkers("webhooks");
  return getFieldAssignment(ctx, zoomerId, id);
}

export async function releaseAssignment(ctx: ServiceContext, zoomerId: string, id: string) {
  const [row] = await ctx.db
    .update(assignments)
    .set({ status: "open", zoomerId: null, reservedUntil: null, updatedAt: new Date() })
    .where(and(eq(assignments.id, id), eq(assignments.zoomerId, zoomerId), eq(assignments.status, "reserved")))
    .returning({ id: assignments.id });
  if (!row) throw new ApiError(409, "assignment_not_reserved", "This task is not reserved by you.");
}

/**
 * Housekeeping: reservations that ran out go back to the pool, and work past its deadline is
 * flagged late (once, with an event the partner sees) and stays on offer.
 */
export async function tidyAssignments(ctx: Pick<ServiceContext, "db">, now = new Date()): Promise<void> {
  await ctx.db
    .update(assignments)
    .set({ status: "open", zoomerId: null, reservedUntil: null, updatedAt: now })
    .where(and(eq(assignments.status, "reserved"), lt(assignments.reservedUntil, now)));
  await ctx.db.transaction(async (tx) => {
    const late = await tx
      .update(assignments)
      .set({ late: true, updatedAt: now })
      .where(and(inArray(assignments.status, ["open", "reserved"]), lt(assignments.deadlineAt, now), eq(assignments.late, false)))
      .returning();
    for (const a of late) {
      await recordEvent(tx, {
        orgId: a.orgId,
        type: "order.assignment.late",
        orderId: a.orderId,
        data: {
          order_id: a.orderId,
          mission_id: a.missionId,
          location_id: a.locationId,
          assignment_id: a.id,
          angle: a.angle,
          deadline_at: a.deadlineAt.toISOString(),
        },
      });
    }
  });
}
