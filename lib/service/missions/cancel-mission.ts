import { and, eq } from "drizzle-orm";
import { missions } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { getMissionRow } from "./get-mission";
import { refuseOrderMission } from "./mission-of-order";
import { serializeMission } from "./serialize-mission";

export async function cancelMission({ ctx, orgId, id }: { ctx: Pick<ServiceContext, "db" | "missionCache">; orgId: string; id: string }) {
  const { db } = ctx;
  const current = await getMissionRow(ctx, orgId, id);
  refuseOrderMission(current, "cancelled");
  if (current.status !== "active") {
    throw new ApiError(409, "mission_not_active", `The mission is already ${current.status}.`);
  }
  const now = new Date();
  const [row] = await db
    .update(missions)
    .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
    .where(and(eq(missions.id, id), eq(missions.orgId, orgId), eq(missions.status, "active")))
    .returning();
  ctx.missionCache.invalidate(id);
  if (!row) throw new ApiError(409, "mission_not_active", "The mission stopped being active while it was being cancelled.");
  return serializeMission(row);
}
