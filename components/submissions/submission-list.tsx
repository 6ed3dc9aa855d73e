"use client";
import { useEffect, useMemo, useRef } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { distanceFromPolygonM, formatDistanceFromMission } from "@/lib/geo/distance-from-polygon";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import type { SubmissionListItem } from "./types";

const time = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/**
 * The submissions as a list kept in step with the map: hovering or selecting a row highlights
 * its point, and a point selected on the map scrolls its row into view. A row reads as people
 * think of a photo: what it looks like, when it was taken, which angle, how far from the mission,
 * and its status. The id is in the panel (copyable), not here.
 */
export function SubmissionList({
  submissions,
  missionBounds,
  selectedId,
  hoveredId,
  onSelect,
  onHover,
}: {
  submissions: SubmissionListItem[];
  /** The mission's polygon, to say how far from it each photo was taken. */
  missionBounds: PolygonGeometry;
  selectedId: string | null;
  hoveredId: string | null;
  onSelect: (id: string) => void;
  onHover: (id: string | null) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!selectedId) return;
    list.current?.querySelector(`[data-submission-id="${CSS.escape(selectedId)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selectedId]);

  const distances = useMemo(
    () => new Map(submissions.map((s) => [s.id, s.location ? formatDistanceFromMission(distanceFromPolygonM(missionBounds, s.location.lng, s.location.lat)) : "no GPS"])),
    [submissions, missionBounds],
  );

  return (
    <ul ref={list} aria-label="Submissions" className="flex flex-col divide-y divide-slate-100" onMouseLeave={() => onHover(null)}>
      {submissions.map((s) => {
        const selected = s.id === selectedId;
        const hovered = s.id === hoveredId;
        const when = s.captured_at ?? s.created_at;
        return (
          <li key={s.id} data-submission-id={s.id}>
            <button
              type="button"
              aria-current={selected ? "true" : undefined}
              onClick={() => onSelect(s.id)}
              onMouseEnter={() => onHover(s.id)}
              onFocus={() => onHover(s.id)}
              className={`flex w-full items-center gap-3 px-3 py-2 text-start text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600 ${
                selected ? "bg-emerald-50" : hovered ? "bg-slate-50" : "bg-white"
              }`}
            >
              <span className="flex size-12 shrink-0 items-center justify-center overflow-hidden rounded-md bg-slate-100" data-testid="submission-thumbnail">
                {s.thumbnail_url ? (
                  // eslint-disable-next-line @next/next/no-img-element -- signed CDN thumbnail, already 320 px
                  <img src={s.thumbnail_url} alt="" loading="lazy" className="size-full object-cover" />
                ) : (
                  <span className="px-1 text-center text-[10px] leading-tight text-slate-600">no preview yet</span>
                )}
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="truncate font-medium text-slate-900">
                  <span className="sr-only">{s.captured_at ? "Taken " : "Received "}</span>
                  <time dateTime={when}>{time.format(new Date(when))}</time>
                  {s.angle ? <span className="font-normal text-slate-600"> · {s.angle.replaceAll("_", " ")}</span> : null}
                </span>
                <span className="truncate text-xs text-slate-600">
                  <span data-testid="submission-distance">{distances.get(s.id)}</span> · {s.image_count} photo{s.image_count === 1 ? "" : "s"}
                  {s.captured_at ? "" : " · no capture time"}
                </span>
              </span>
              <StatusBadge status={s.status} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
