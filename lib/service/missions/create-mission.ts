import type { Db } from "@/lib/db/client";
import { missions } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { CreateMissionInput } from "@/lib/schemas/mission";
import { recordEvent } from "@/lib/service/events/record-event";
import { serializeMission } from "./serialize-mission";
import { boundsColumns, validateBounds } from "./validate-bounds";

export interface CreateMissionOptions {
  db: Db;
  orgId: string;
  input: CreateMissionInput;
  /** Set when the mission is dispatched from an order (id prefix mis_). */
  order?: { orderId: string; locationId: string };
}

export async function createMission({ db, orgId, input, order }: CreateMissionOptions) {
  const area = boundsColumns(validateBounds(input.bounds));
  const requiredImages = input.required_images ?? input.requiredImages ?? 1;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(missions)
      .values({
        id: createId(order ? "orderMission" : "mission"),
        orgId,
        title: input.title,
        description: input.description ?? "",
        ...area,
        requiredImages,
        qaSettings: input.qa ?? {},
        orderId: order?.orderId ?? null,
        locationId: order?.locationId ?? null,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    const mission = serializeMission(row);
    await recordEvent(tx, { orgId, type: "mission.created", data: { mission } });
    return mission;
  });
}
