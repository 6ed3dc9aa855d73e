import { pageTotal } from "@/lib/db/page-total";
import { and, count, desc, eq, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { reusableQuery } from "@/lib/db/reusable-query";
import { SUBMISSION_STATUSES, submissions } from "@/lib/db/schema";
import { parseBbox, parseStatusFilter } from "@/lib/service/query-filters";
import type { SubmissionRow } from "./serialize-submission";

export interface ListSubmissionsOptions {
  db: Db;
  missionId: string;
  status?: string;
  since?: string;
  until?: string;
  bbox?: string;
  page: number;
  perPage: number;
}

// The page without filters, the list's usual read (the dashboard's list, a partner's sync): built once.
const unfilteredPage = reusableQuery("list_submissions_page", (db) =>
  db
    .select()
    .from(submissions)
    .where(eq(submissions.missionId, sql.placeholder("missionId")))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset")),
);

export async function listSubmissions(options: ListSubmissionsOptions): Promise<{ rows: SubmissionRow[]; total: number }> {
  const { db, missionId, page, perPage } = options;
  const unfiltered = !options.status && !options.since && !options.until && !options.bbox;
  const where: SQL[] = [eq(submissions.missionId, missionId)];
  const statuses = parseStatusFilter(options.status, SUBMISSION_STATUSES, null);
  if (statuses) where.push(inArray(submissions.status, statuses));
  if (options.since) where.push(gte(submissions.createdAt, new Date(options.since)));
  if (options.until) where.push(lt(submissions.createdAt, new Date(options.until)));
  if (options.bbox) {
    const [minLng, minLat, maxLng, maxLat] = parseBbox(options.bbox);
    where.push(gte(submissions.lng, minLng), lte(submissions.lng, maxLng), gte(submissions.lat, minLat), lte(submissions.lat, maxLat));
  }
  const condition = and(...where);
  const rows = unfiltered
    ? await unfilteredPage(db, { missionId, limit: perPage, offset: (page - 1) * perPage })
    : await db
        .select()
        .from(submissions)
        .where(condition)
        .orderBy(desc(submissions.createdAt), desc(submissions.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
  const total = await pageTotal(
    rows.length,
    { page, perPage },
    async () => (await db.select({ total: count() }).from(submissions).where(condition))[0]?.total ?? 0,
  );
  return { rows, total };
}
