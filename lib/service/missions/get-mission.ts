import { and, eq } from "drizzle-orm";
import { missions } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import type { MissionRow } from "./serialize-mission";

/** The mission if it belongs to the organisation; another organisation's mission is 404. */
export async function getMissionRow(ctx: Pick<ServiceContext, "db" | "missionCache">, orgId: string, id: string): Promise<MissionRow> {
  const cached = ctx.missionCache.get(id);
  if (cached) {
    if (cached.orgId !== orgId) throw notFound("mission");
    return cached;
  }
  const version = ctx.missionCache.version(id);
  const [row] = await ctx.db
    .select()
    .from(missions)
    .where(and(eq(missions.id, id), eq(missions.orgId, orgId)))
    .limit(1);
  if (!row) throw notFound("mission");
  ctx.missionCache.set(row, version);
  return row;
}
