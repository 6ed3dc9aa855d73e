import { and, count, desc, eq, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { SUBMISSION_STATUSES, submissions, type SubmissionStatus } from "@/lib/db/schema";
import { parseBbox } from "@/lib/service/parse-bbox";
import { ApiError } from "@/lib/service/errors";
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

function parseStatuses(value: string | undefined): SubmissionStatus[] | null {
  if (!value || value === "all") return null;
  const names = value.split(",").map((s) => s.trim());
  const bad = names.filter((n) => !(SUBMISSION_STATUSES as readonly string[]).includes(n));
  if (bad.length > 0) {
    throw new ApiError(422, "invalid_parameter", `Unknown status ${bad.map((b) => `"${b}"`).join(", ")}.`, {
      errors: [{ pointer: "status", in: "query", message: `Use ${SUBMISSION_STATUSES.join(", ")} or all.` }],
    });
  }
  return names as SubmissionStatus[];
}

export async function listSubmissions(options: ListSubmissionsOptions): Promise<{ rows: SubmissionRow[]; total: number }> {
  const { db, missionId, page, perPage } = options;
  const where: SQL[] = [eq(submissions.missionId, missionId)];
  const statuses = parseStatuses(options.status);
  if (statuses) where.push(inArray(submissions.status, statuses));
  if (options.since) where.push(gte(submissions.createdAt, new Date(options.since)));
  if (options.until) where.push(lt(submissions.createdAt, new Date(options.until)));
  if (options.bbox) {
    const [minLng, minLat, maxLng, maxLat] = parseBbox(options.bbox);
    where.push(gte(submissions.lng, minLng), lte(submissions.lng, maxLng), gte(submissions.lat, minLat), lte(submissions.lat, maxLat));
  }
  const condition = and(...where);
  const rows = await db
    .select()
    .from(submissions)
    .where(condition)
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [totals] = await db.select({ total: count() }).from(submissions).where(condition);
  return { rows, total: totals?.total ?? 0 };
}
