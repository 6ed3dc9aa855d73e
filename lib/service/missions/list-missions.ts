import { pageTotal } from "@/lib/db/page-total";
import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { reusableQuery } from "@/lib/db/reusable-query";
import { MISSION_STATUSES, missions } from "@/lib/db/schema";
import { parseBbox, parseStatusFilter } from "@/lib/service/query-filters";
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** The statuses a list shows when it names none. */
const DEFAULT_STATUSES = ["active"] as const;

// The page without filters (the active missions, newest first), the list's usual read: built once.
const unfilteredPage = reusableQuery("list_missions_page", (db) =>
  db
    .select()
    .from(missions)
    .where(and(eq(missions.orgId, sql.placeholder("orgId")), inArray(missions.status, [...DEFAULT_STATUSES])))
    .orderBy(desc(missions.createdAt), desc(missions.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
);

export async function listMissions(options: ListMissionsOptions) {
  const { db, orgId, page, perPage } = options;
  const unfiltered = !options.status && !options.q && !options.createdSince && !options.updatedSince && !options.bbox;
  const where: SQL[] = [eq(missions.orgId, orgId)];
  const statuses = parseStatusFilter(options.status, MISSION_STATUSES, [...DEFAULT_STATUSES]);
  if (statuses) where.push(inArray(missions.status, statuses));
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
  const rows = unfiltered
    ? await unfilteredPage(db, { orgId, limit: perPage, offset: (page - 1) * perPage })
    : await db
        .select()
        .from(missions)
        .where(condition)
        .orderBy(desc(missions.createdAt), desc(missions.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
  const total = await pageTotal(rows.length, { page, perPage }, () => countMissions(db, condition));
  return { data: rows.map(serializeMission), meta: { total, page, per_page: perPage } };
}

async function countMissions(db: Db, condition: SQL | undefined): Promise<number> {
  return (await db.select({ total: count() }).from(missions).where(condition))[0]?.total ?? 0;
}
