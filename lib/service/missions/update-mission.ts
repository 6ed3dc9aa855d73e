import { and, eq } from "drizzle-orm";
import { missions } from "@/lib/db/schema";
import type { UpdateMissionInput } from "@/lib/schemas/mission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { getMissionRow } from "./get-mission";
import { refuseOrderMission } from "./mission-of-order";
import { serializeMission } from "./serialize-mission";
import { boundsColumns, validateBounds } from "./validate-bounds";

export interface UpdateMissionOptions {
  ctx: Pick<ServiceContext, "db" | "missionCache">;
  orgId: string;
  id: string;
  input: UpdateMissionInput;
}

export async function updateMission({ ctx, orgId, id, input }: UpdateMissionOptions) {
  const { db } = ctx;
  const current = await getMissionRow(ctx, orgId, id);
  refuseOrderMission(current, "changed");
  if (current.status !== "active") {
    throw new ApiError(409, "mission_not_active", `The mission is ${current.status}; only active missions can be changed.`);
  }
  const changes: Partial<typeof missions.$inferInsert> = { updatedAt: new Date() };
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  const requiredImages = input.required_images ?? input.requiredImages;
  if (requiredImages !== undefined) changes.requiredImages = requiredImages;
  if (input.qa !== undefined) changes.qaSettings = { ...(current.qaSettings as object), ...input.qa };
  if (input.bounds !== undefined) {
    Object.assign(changes, boundsColumns(validateBounds(input.bounds)));
  }
  // The status condition makes a concurrent cancel win cleanly instead of being overwritten.
  const [row] = await db
    .update(missions)
    .set(changes)
    .where(and(eq(missions.id, id), eq(missions.orgId, orgId), eq(missions.status, "active")))
    .returning();
  ctx.missionCache.invalidate(id);
  if (!row) throw new ApiError(409, "mission_not_active", "The mission stopped being active while it was being changed.");
  return serializeMission(row);
}
