// Dispatch: one real mission (id mis_…) per location for a cycle of an order — a small area around
// the point, one required image per angle, due by the plan's delivery promise or the end of the
// cycle's window — with `mission.created` and `order.mission.assigned` in the same transaction, and
// each location's delivery promise (its deliver_by) fixed from the order's quote.
// The cycle's row is inserted first, under the order's primary key and the cycle number, so a
// cycle can never be dispatched twice, whatever retries or restarts happen.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";
import { assignments, deliveryPromises, missions } from "@/lib/db/schema";
import { locationPromise } from "@/lib/orders/delivery-promise";
import { createId } from "@/lib/ids/create-id";
import type { Quote, Requirements } from "@/lib/schemas/order";
import { recordEvent } from "@/lib/service/events/record-event";
import { serializeMission } from "@/lib/service/missions/serialize-mission";
import type { OrderLocationRow, OrderRow } from "../order-rows";
import { orderMissionRow } from "./order-mission-row";

/** A location's window in a cycle: its local day and when it opens and closes. */
export interface CycleWindow {
  localDate: string;
  startsAt: Date;
  endsAt: Date;
}

export interface DispatchOptions {
  order: OrderRow;
  /** The locations to dispatch, each with its window in this cycle (null for a one-off order). */
  locations: { location: OrderLocationRow; window: CycleWindow | null }[];
  index: number;
  deliveryHours: number;
  now: Date;
}

/** Mission ids dispatched, or null when this cycle had already been dispatched or skipped. */
export async function dispatchCycle(tx: Db, { order, locations, index, deliveryHours, now }: DispatchOptions): Promise<string[] | null> {
  const photos = locations.reduce((sum, { location }) => sum + ((location.requirements as Requirements).angles?.length ?? 0), 0);
  const first = locations.find((l) => l.window)?.window ?? null;
  const inserted = await queryRows<{ index: number }>(
    tx,
    sql`insert into order_cycles (order_id, org_id, index, status, local_date, starts_at, ends_at, photos, created_at)
        values (${order.id}, ${order.orgId}, ${index}, 'dispatched', ${first?.localDate ?? now.toISOString().slice(0, 10)},
                ${(first?.startsAt ?? now).toISOString()}, ${(first?.endsAt ?? new Date(now.getTime() + deliveryHours * 3_600_000)).toISOString()},
                ${photos}, ${now.toISOString()})
        on conflict (order_id, index) do nothing
        returning index`,
  );
  if (inserted.length === 0) return null;

  const rows = locations.map(({ location, window }) =>
    orderMissionRow({
      order,
      location,
      cycleIndex: index,
      // A cycle's photos are due when its window closes (it is dispatched ahead of the window, so
      // the plan's promise counted from dispatch could fall before the window even opens); a
      // one-off order's are due by the plan's delivery promise.
      deadline: window ? window.endsAt : new Date(now.getTime() + deliveryHours * 3_600_000),
      now,
    }),
  );
  if (rows.length === 0) return [];
  const created = await tx.insert(missions).values(rows).returning();
  const windows = new Map(locations.map(({ location, window }) => [location.id, { location, window }]));
  const work = created.flatMap((mission) => {
    const entry = windows.get(mission.locationId ?? "");
    if (!entry) return [];
    const angles = (entry.location.requirements as Requirements).angles ?? [];
    return angles.map((angle) => ({
      id: createId("assignment"),
      orgId: order.orgId,
      orderId: order.id,
      missionId: mission.id,
      locationId: entry.location.id,
      cycleIndex: index,
      angle,
      lat: entry.location.lat,
      lng: entry.location.lng,
      timeZone: entry.location.timeZone,
      windowStart: entry.window?.startsAt ?? null,
      windowEnd: entry.window?.endsAt ?? null,
      deadlineAt: mission.deadlineAt ?? now,
      createdAt: now,
      updatedAt: now,
    }));
  });
  if (work.length > 0) await tx.insert(assignments).values(work);
  // Each location's promise, from the estimate the order's quote stated before payment: fixed now.
  const estimate = (order.quote as Partial<Quote>).delivery_estimate ?? null;
  const promises = created.flatMap((mission) => {
    const entry = windows.get(mission.locationId ?? "");
    if (!entry) return [];
    const opensAt = new Date(Math.max(now.getTime(), entry.window?.startsAt.getTime() ?? 0));
    const promise = locationPromise({ estimate, planDeadline: mission.deadlineAt ?? now, opensAt });
    return [
      {
        orderId: order.id,
        locationId: entry.location.id,
        cycleIndex: index,
        orgId: order.orgId,
        missionId: mission.id,
        opensAt,
        expectedTakeBy: promise.expectedTakeBy,
        deliverBy: promise.deliverBy,
        createdAt: now,
        updatedAt: now,
      },
    ];
  });
  if (promises.length > 0) await tx.insert(deliveryPromises).values(promises);
  for (const row of created) {
    const mission = serializeMission(row);
    await recordEvent(tx, { orgId: order.orgId, type: "mission.created", data: { mission } });
    await recordEvent(tx, {
      orgId: order.orgId,
      type: "order.mission.assigned",
      orderId: order.id,
      data: {
        order_id: order.id,
        mission_id: row.id,
        location_id: row.locationId,
        cycle_index: index,
        deadline_at: row.deadlineAt?.toISOString() ?? null,
        mission,
      },
    });
  }
  return created.map((r) => r.id);
}
