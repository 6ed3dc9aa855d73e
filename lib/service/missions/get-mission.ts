import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { missions } from "@/lib/db/schema";
import { notFound } from "@/lib/service/errors";
import type { MissionRow } from "./serialize-mission";

/** The mission if it belongs to the organisation; another organisation's mission is 404. */
export async function getMissionRow(db: Db, orgId: string, id: string): Promise<MissionRow> {
  const [row] = await db
    .select()
    .from(missions)
    .where(and(eq(missions.id, id), eq(missions.orgId, orgId)))
    .limit(1);
  if (!row) throw notFound("mission");
  return row;
}
