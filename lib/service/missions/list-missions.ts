import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { MISSION_STATUSES, missions, type MissionStatus } from "@/lib/db/schema";
import { parseBbox } from "@/lib/service/parse-bbox";
import { ApiError } from "@/lib/service/errors";
import { serializeMission } from "./serialize-mission";

export interface ListMissionsOptions {
  db: Db;
  orgId: string;
  status?: string;
  q?: string;
  createdSince?: string;
  updatedSince?: string;
  bbox?: string;
  page: number;
  perPage: number;
}

function parseStatuses(value: string | undefined): MissionStatus[] | "all" {
  if (!value) return ["active"];
  if (value === "all") return "all";
  const names = value.split(",").map((s) => s.trim());
  const bad = names.filter((n) => !(MISSION_STATUSES as readonly string[]).includes(n));
  if (bad.length > 0) {
    throw new ApiError(422, "invalid_parameter", `Unknown status ${bad.map((b) => `"${b}"`).join(", ")}.`, {
      errors: [{ pointer: "status", in: "query", message: `Use ${MISSION_STATUSES.join(", ")} or all.` }],
    });
  }
  return names as MissionStatus[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export async function listMissions(options: ListMissionsOptions) {
  const { db, orgId, page, perPage } = options;
  const where: SQL[] = [eq(missions.orgId, orgId)];
  const statuses = parseStatuses(options.status);
  if (statuses !== "all") where.push(inArray(missions.status, statuses));
  if (options.q) {
    const pattern = `%${escapeLike(options.q)}%`;
    const text = or(ilike(missions.title, pattern), ilike(missions.description, pattern));
    if (text) where.push(text);
  }
  if (options.createdSince) where.push(gte(missions.createdAt, new Date(options.createdSince)));
  if (options.updatedSince) where.push(gte(missions.updatedAt, new Date(options.updatedSince)));
  if (options.bbox) {
    const [minLng, minLat, maxLng, maxLat] = parseBbox(options.bbox);
    where.push(lte(missions.minLng, maxLng), gte(missions.maxLng, minLng), lte(missions.minLat, maxLat), gte(missions.maxLat, minLat));
  }
  const condition = and(...where);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(missions)
      .where(condition)
      .orderBy(desc(missions.createdAt), desc(missions.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ total: count() }).from(missions).where(condition),
  ]);
  return { data: rows.map(serializeMission), meta: { total: totals[0]?.total ?? 0, page, per_page: perPage } };
}
