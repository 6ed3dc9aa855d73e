// The API's shapes as the browser receives them through the dashboard proxy (types only).
import type { components } from "@/lib/api-client/openapi-types";

export type Mission = components["schemas"]["Mission"];
export type Submission = components["schemas"]["Submission"];
export type SubmissionListItem = components["schemas"]["SubmissionListItem"];
export type SubmissionDetail = components["schemas"]["SubmissionDetail"];
export type SubmissionImage = components["schemas"]["Image"];
export type QaCheck = components["schemas"]["QaCheck"];
export type SubmissionStatus = Submission["status"];

export const SUBMISSION_STATUSES: SubmissionStatus[] = ["received", "processing", "approved", "rejected"];

export interface SubmissionFilters {
  statuses: SubmissionStatus[];
  /** yyyy-mm-dd, local days, inclusive */
  from: string;
  to: string;
}

/** The query string the API takes for these filters (received in [from 00:00, to+1 00:00) local time). */
export function filtersToQuery(filters: SubmissionFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.statuses.length > 0 && filters.statuses.length < SUBMISSION_STATUSES.length) query.set("status", filters.statuses.join(","));
  if (filters.from) query.set("since", new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) {
    const end = new Date(`${filters.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    query.set("until", end.toISOString());
  }
  return query;
}
