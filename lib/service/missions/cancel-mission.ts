import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { missions } from "@/lib/db/schema";
import { ApiError } from "@/lib/service/errors";
import { getMissionRow } from "./get-mission";
import { serializeMission } from "./serialize-mission";

export async function cancelMission({ db, orgId, id }: { db: Db; orgId: string; id: string }) {
  const current = await getMissionRow(db, orgId, id);
  if (current.status !== "active") {
    throw new ApiError(409, "mission_not_active", `The mission is already ${current.status}.`);
  }
  const now = new Date();
  const [row] = await db
    .update(missions)
    .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
    .where(and(eq(missions.id, id), eq(missions.orgId, orgId), eq(missions.status, "active")))
    .returning();
  if (!row) throw new ApiError(409, "mission_not_active", "The mission stopped being active while it was being cancelled.");
  return serializeMission(row);
}
