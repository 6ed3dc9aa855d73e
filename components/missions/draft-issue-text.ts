// A drawn outline's problem in the reader's language: the values describeDraft found, put into
// missions.editor.issues.* (areas through the reader's units). Issues without values (an import's
// broken GeoJSON) keep describeDraft's English sentence.
import type { DraftIssue, RingRef } from "@/lib/geo/describe-draft";

type IssueKey =
  | "tooManyVertices"
  | "areaTooLarge"
  | "areaTooSmall"
  | "selfCrosses"
  | "selfTouches"
  | "selfOverlaps"
  | "duplicateVertex"
  | "ringTooShort"
  | "antimeridian"
  | "holeOutside";
export type IssueWords = (key: IssueKey, values?: Record<string, string | number>) => string;

export function draftIssueText(issue: DraftIssue, t: IssueWords, area: (m2: number) => string): string {
  const detail = issue.detail;
  if (!detail) return issue.message;
  switch (detail.kind) {
    case "too_many_vertices":
      return t("tooManyVertices", { count: detail.count, limit: detail.limit });
    case "area_too_large":
      return t("areaTooLarge", { area: area(detail.areaM2), limit: area(detail.limitM2) });
    case "area_too_small":
      return t("areaTooSmall", { area: area(detail.areaM2), limit: area(detail.limitM2) });
    case "self_intersection": {
      const key = detail.contact === "touches" ? "selfTouches" : detail.contact === "overlaps" ? "selfOverlaps" : "selfCrosses";
      return t(key, { ...ring(detail.ring), a: detail.a, b: detail.b, c: detail.c, d: detail.d });
    }
    case "duplicate_vertex":
      return t("duplicateVertex", { ...ring(detail.ring), vertex: detail.vertex, repeats: detail.repeats });
    case "ring_too_short":
      return t("ringTooShort", ring(detail.ring));
    case "antimeridian":
      return t("antimeridian");
    case "hole_outside":
      return t("holeOutside", ring(detail.ring));
  }
}

/** The ring as the messages select on it: "outline", or "hole" with its number. */
function ring(ref: RingRef): { ring: string; hole: number } {
  return ref.ring === "outline" ? { ring: "outline", hole: 0 } : { ring: "hole", hole: ref.hole };
}
