"use client";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useRef } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { useMeasures } from "@/components/dashboard/use-measures";
import { StatusBadge } from "@/components/ui/badge";
import { distanceFromPolygonM } from "@/lib/geo/distance-from-polygon";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import type { SubmissionListItem } from "./types";

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
  const t = useTranslations("dashboard.submissions");
  const formatLocale = useFormatLocale();
  const measures = useMeasures();
  const time = useMemo(() => new Intl.DateTimeFormat(formatLocale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }), [formatLocale]);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!selectedId) return;
    list.current?.querySelector(`[data-submission-id="${CSS.escape(selectedId)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selectedId]);

  const distances = useMemo(
    () =>
      new Map(
        submissions.map((s) => {
          if (!s.location) return [s.id, t("noGps")];
          const metres = distanceFromPolygonM(missionBounds, s.location.lng, s.location.lat);
          return [s.id, metres <= 0 ? t("distance.inside") : t("distance.away", { distance: measures.distance(metres) })];
        }),
      ),
    [submissions, missionBounds, t, measures],
  );

  return (
    <ul ref={list} aria-label={t("listLabel")} className="flex flex-col divide-y divide-slate-100" onMouseLeave={() => onHover(null)}>
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
                  <span className="px-1 text-center text-[10px] leading-tight text-slate-600">{t("noPreview")}</span>
                )}
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                {/* Two lines at most: a longer angle name ("Warteschlange am Eingang") wraps rather than vanishing. */}
                <span className="line-clamp-2 font-medium text-slate-900">
                  <span className="sr-only">{s.captured_at ? t("taken") : t("received")} </span>
                  <time dateTime={when}>{time.format(new Date(when))}</time>
                  {s.angle ? <span className="font-normal text-slate-600"> · {t(`angle.${s.angle}`)}</span> : null}
                </span>
                <span className="truncate text-xs text-slate-600">
                  <span data-testid="submission-distance">{distances.get(s.id)}</span> · {t("photos", { count: s.image_count })}
                  {s.captured_at ? "" : ` · ${t("noCaptureTime")}`}
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
