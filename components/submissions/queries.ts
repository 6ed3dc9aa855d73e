// React Query factories for the mission page; every request goes to the session-guarded
// dashboard proxy (/dashboard-api), never to the API with a token.
import { queryOptions } from "@tanstack/react-query";
import { ProxyError, proxyJson } from "@/components/dashboard/proxy-json";
import { pointsPollInterval } from "./points-poll";
import { filtersToQuery, type Mission, type Submission, type SubmissionDetail, type SubmissionFilters, type SubmissionListItem } from "./types";

export const LIVE_INTERVAL_MS = 4000;

export const missionQuery = (id: string) =>
  queryOptions({ queryKey: ["mission", id], queryFn: () => proxyJson<Mission>(`missions/${id}`), refetchInterval: LIVE_INTERVAL_MS * 2 });

export interface SubmissionPage {
  data: SubmissionListItem[];
  meta: { total: number; page: number; per_page: number };
}

export const submissionListQuery = (missionId: string, filters: SubmissionFilters, page: number) =>
  queryOptions({
    queryKey: ["submissions", missionId, filters, page],
    queryFn: () => {
      const query = filtersToQuery(filters);
      query.set("page", String(page));
      query.set("per_page", "50");
      return proxyJson<SubmissionPage>(`missions/${missionId}/submissions?${query.toString()}`);
    },
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: (previous) => previous,
  });

export const submissionQuery = (id: string) =>
  queryOptions({
    queryKey: ["submission", id],
    queryFn: () => proxyJson<SubmissionDetail>(`submissions/${id}`),
    // Still in QA: look again soon; decided submissions do not change.
    refetchInterval: (query) =>
      query.state.data && (query.state.data.status === "received" || query.state.data.status === "processing") ? LIVE_INTERVAL_MS : false,
  });

export interface SubmissionPoints {
  type: "FeatureCollection";
  features: {
    type: "Feature";
    geometry: { type: "Point"; coordinates: [number, number] };
    properties: { id: string; status: Submission["status"]; received_at: string };
  }[];
  meta: { count: number; unlocated: number };
}

const lastPoints = new Map<string, { etag: string; data: SubmissionPoints }>();

/**
 * All located submissions as one GeoJSON document, revalidated with its ETag: an unchanged
 * answer (304) returns the same object, so the map is not handed 100,000 points again.
 */
export function submissionPointsQuery(missionId: string, filters: SubmissionFilters) {
  const search = filtersToQuery(filters).toString();
  const key = `${missionId}?${search}`;
  return queryOptions({
    queryKey: ["submission-points", missionId, filters],
    queryFn: async ({ signal }) => {
      const previous = lastPoints.get(key);
      const res = await fetch(`/dashboard-api/missions/${missionId}/submission-points?${search}`, {
        signal,
        cache: "no-store",
        headers: previous ? { "if-none-match": previous.etag } : {},
      });
      if (res.status === 304 && previous) return previous.data;
      if (!res.ok) throw new ProxyError(res.status, `The map data could not be loaded (${res.status}).`);
      const data = (await res.json()) as SubmissionPoints;
      const etag = res.headers.get("etag");
      if (etag) lastPoints.set(key, { etag, data });
      return data;
    },
    // Large missions less often: each ask has the server count the whole mission (points-poll.ts).
    refetchInterval: (query) => pointsPollInterval(query.state.data?.meta.count),
    structuralSharing: false,
  });
}
