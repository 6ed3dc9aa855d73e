import { and, eq, inArray } from "drizzle-orm";
import { images } from "@/lib/db/schema";
import type { SubmissionFeatureCollection, SubmissionListItem } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { getMissionRow } from "@/lib/service/missions/get-mission";
import { listSubmissions } from "./list-submissions";
import { serializeImage, serializeSubmission, submissionFeature } from "./serialize-submission";

/** The media type of the GeoJSON representation (RFC 7946). */
export const GEOJSON_MEDIA_TYPE = "application/geo+json";

/** The largest page of a JSON list (a GeoJSON page may hold up to MAX_GEOJSON_PAGE). */
export const MAX_JSON_PAGE = 100;
export const MAX_GEOJSON_PAGE = 5000;

export interface SubmissionFilters {
  status?: string;
  since?: string;
  until?: string;
  bbox?: string;
}

/** A page of a mission's submissions: the list envelope with each one's thumbnail, or a GeoJSON FeatureCollection. */
export type MissionSubmissionsPage =
  | { format: "json"; body: { data: SubmissionListItem[]; meta: SubmissionFeatureCollection["meta"] } }
  | { format: "geojson"; body: SubmissionFeatureCollection };

/**
 * A page of the organisation's mission's submissions, newest first (404 when the mission is not
 * the organisation's; 422 for a JSON page over MAX_JSON_PAGE).
 */
export async function listMissionSubmissions(
  ctx: ServiceContext,
  options: { orgId: string; missionId: string; filters?: SubmissionFilters; page: number; perPage: number; format: "json" | "geojson" },
): Promise<MissionSubmissionsPage> {
  const { page, perPage, format } = options;
  const mission = await getMissionRow(ctx, options.orgId, options.missionId);
  if (format === "json" && perPage > MAX_JSON_PAGE) {
    throw new ApiError(422, "validation_failed", `per_page is at most ${MAX_JSON_PAGE} for JSON (use GeoJSON for larger pages).`, {
      errors: [{ pointer: "per_page", in: "query", message: `At most ${MAX_JSON_PAGE}.` }],
    });
  }
  const { rows, total } = await listSubmissions({ db: ctx.db, missionId: mission.id, ...options.filters, page, perPage });
  const meta = { total, page, per_page: perPage };
  if (format === "geojson") return { format, body: { type: "FeatureCollection", features: rows.map(submissionFeature), meta } };
  // One query for the page's first photos, for the thumbnails the dashboard's list shows.
  const firstImages =
    rows.length === 0
      ? []
      : await ctx.db
          .select()
          .from(images)
          .where(
            and(
              inArray(
                images.submissionId,
                rows.map((row) => row.id),
              ),
              eq(images.position, 0),
            ),
          );
  const thumbnails = new Map(firstImages.map((image) => [image.submissionId, serializeImage(image, ctx).thumbnail_url]));
  return { format, body: { data: rows.map((row) => ({ ...serializeSubmission(row), thumbnail_url: thumbnails.get(row.id) ?? null })), meta } };
}
