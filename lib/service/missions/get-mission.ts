import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { missions } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import { toJsonText, type JsonText } from "@/lib/service/json-text";
import type { Mission } from "@/lib/schemas/mission";
import { serializeMission, type MissionRow } from "./serialize-mission";

// The hottest read of the API, built once per database handle instead of per request (building a
// query with its selection costs more than the PostgreSQL round trip's own work: issue 27's profile);
// on PostgreSQL it is also a named prepared statement, parsed and planned once per connection.
const prepared = new WeakMap<Db, ReturnType<typeof prepareMissionRead>>();

function prepareMissionRead(db: Db) {
  return db
    .select()
    .from(missions)
    .where(and(eq(missions.id, sql.placeholder("id")), eq(missions.orgId, sql.placeholder("orgId"))))
    .limit(1)
    .prepare("get_mission_row");
}

/** The mission if it belongs to the organisation; another organisation's mission is 404. */
export async function getMissionRow(ctx: Pick<ServiceContext, "db" | "missionCache">, orgId: string, id: string): Promise<MissionRow> {
  const cached = ctx.missionCache.get(id);
  if (cached) {
    if (cached.orgId !== orgId) throw notFound("mission");
    return cached;
  }
  const version = ctx.missionCache.version(id);
  let read = prepared.get(ctx.db);
  if (!read) {
    read = prepareMissionRead(ctx.db);
    prepared.set(ctx.db, read);
  }
  const [row] = await read.execute({ id, orgId });
  if (!row) throw notFound("mission");
  ctx.missionCache.set(row, version);
  return row;
}

// A cached row's JSON, made once: a cached row is never changed (a write invalidates it and the
// next read caches a new row), so its text lives exactly as long as the row does.
const serialised = new WeakMap<MissionRow, JsonText<Mission>>();

/** The mission as the API sends it (GET /missions/{id}), if it belongs to the organisation. */
export async function getMissionJson(ctx: Pick<ServiceContext, "db" | "missionCache">, orgId: string, id: string): Promise<JsonText<Mission>> {
  const row = await getMissionRow(ctx, orgId, id);
  let json = serialised.get(row);
  if (json === undefined) {
    json = toJsonText(serializeMission(row));
    if (ctx.missionCache.get(id) === row) serialised.set(row, json);
  }
  return json;
}
