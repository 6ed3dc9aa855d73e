"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { IntentLink } from "@/components/ui/intent-link";
import { prewarmMaplibre } from "@/components/map/prewarm-maplibre";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { missionProgress, progressWords } from "@/components/missions/mission-progress";
import { OrderMissionBriefView, type OrderMissionBrief } from "@/components/missions/order-mission-brief";
import { useMeasures } from "@/components/dashboard/use-measures";
import { ExportButton } from "@/components/submissions/export-button";
import { missionQuery, submissionListQuery, submissionPointsQuery } from "@/components/submissions/queries";
import { SubmissionFiltersBar } from "@/components/submissions/submission-filters";
import { SubmissionList } from "@/components/submissions/submission-list";
import { SubmissionPanel } from "@/components/submissions/submission-panel";
import type { Mission, SubmissionFilters } from "@/components/submissions/types";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";

// MapLibre only where a map is, and only in the browser; asked for, with its worker started, as
// soon as this module runs — before the page has hydrated (prewarm-maplibre.ts). react-map-gl
// imports it only once the map component has mounted: by then the module is there already.
void prewarmMaplibre();
const MissionMap = dynamic(() => Promise.all([import("./mission-map"), prewarmMaplibre()]).then(([m]) => m.MissionMap), {
  ssr: false,
  // A still box, not a pulsing skeleton: an animation keeps the compositor drawing every frame
  // while the map's own start-up needs the CPU (measured by the map-points benchmark).
  loading: () => <div aria-hidden className="h-full min-h-[24rem] w-full bg-slate-100" />,
});

const NO_FILTERS: SubmissionFilters = { statuses: [], from: "", to: "" };

export function MissionPageClient({ initialMission, brief, canEdit }: { initialMission: Mission; brief: OrderMissionBrief | null; canEdit: boolean }) {
  const t = useTranslations("missions.detail");
  const tProgress = useTranslations("missions.progress");
  const measures = useMeasures();
  const { data: mission = initialMission } = useQuery({ ...missionQuery(initialMission.id), initialData: initialMission });
  const [filters, setFilters] = useState<SubmissionFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const list = useQuery(submissionListQuery(mission.id, filters, page));
  const queryClient = useQueryClient();
  // One source of truth for the page's counts: whenever the list shows something new (a
  // submission arrived or was decided), the header's mission is read again at once, instead of
  // waiting for its own, slower poll and saying "0 submissions" beside a list of two.
  useEffect(() => {
    if (list.data) void queryClient.invalidateQueries({ queryKey: missionQuery(initialMission.id).queryKey });
  }, [list.data, queryClient, initialMission.id]);
  const points = useQuery(submissionPointsQuery(mission.id, filters));
  const bounds = useMemo(() => polygonFromApi(mission.bounds), [mission.bounds]);

  const changeFilters = (next: SubmissionFilters) => {
    setFilters(next);
    setPage(1);
  };
  const total = list.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / 50));
  const progress = missionProgress(mission, progressWords(tProgress));

  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-3 border-b border-slate-200 pb-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <IntentLink href="/missions" className="text-sm text-slate-600 hover:text-slate-900 hover:underline">
            {t("back")}
          </IntentLink>
          <div className="flex items-center gap-3">
            {/* dir="auto": a title in another script than the page's keeps its own direction (and its ellipsis at its end). */}
            <h1 dir="auto" className="truncate text-2xl font-semibold tracking-tight">
              {mission.title}
            </h1>
            <StatusBadge status={mission.status} />
          </div>
          {brief ? (
            <OrderMissionBriefView brief={brief} deadlineAt={mission.deadline_at} description={mission.description} />
          ) : mission.description ? (
            <p className="max-w-3xl whitespace-pre-line text-sm text-slate-600">{mission.description}</p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-4">
          <div className="flex w-64 flex-col gap-1">
            <div className="flex justify-between text-xs text-slate-600">
              <span>{t("approved")}</span>
              <span className="tabular-nums" data-testid="mission-approved">
                {progress.label}
              </span>
            </div>
            <ProgressBar value={progress.counted} max={progress.required} label={t("approvedBar")} />
            <span className="text-xs text-slate-500" data-testid="mission-submissions">
              {t("submissions", { count: mission.submissions })} · {measures.area(mission.area_m2)}
            </span>
          </div>
          {canEdit && mission.status === "active" && mission.order_id === null ? (
            <IntentLink href={`/missions/${mission.id}/edit`} className={buttonClasses({ variant: "secondary" })}>
              {t("edit")}
            </IntentLink>
          ) : null}
          <ExportButton missionId={mission.id} />
        </div>
      </header>

      <div className="grid gap-4 lg:grid-cols-[20rem_1fr]">
        <aside className="order-2 flex min-h-0 flex-col gap-3 lg:order-1" aria-label={t("listLabel")}>
          <SubmissionFiltersBar filters={filters} onChange={changeFilters} />
          <div className="flex items-center justify-between text-xs text-slate-600">
            <span aria-live="polite">
              {list.data ? t("submissions", { count: total }) : t("loading")}
              {points.data && points.data.meta.unlocated > 0 ? ` · ${t("withoutGps", { count: points.data.meta.unlocated })}` : ""}
            </span>
            {list.isFetching ? <span className="text-slate-500">{t("updating")}</span> : null}
          </div>
          <div className="max-h-[28rem] overflow-y-auto rounded-lg border border-slate-200 bg-white lg:max-h-[calc(100vh-20rem)]">
            {list.isPending ? (
              <div className="p-3">
                <LoadingRows rows={6} label={t("loadingSubmissions")} still />
              </div>
            ) : list.error ? (
              <div className="p-3">
                <ErrorState title={t("loadFailed")}>{list.error.message}</ErrorState>
              </div>
            ) : list.data.data.length === 0 ? (
              <div className="p-3">
                {filters !== NO_FILTERS ? (
                  <EmptyState title={t("noneMatch")}>{t("noneMatchHint")}</EmptyState>
                ) : mission.approved_images > 0 ? (
                  // Approved photos whose submissions are gone (the demo's history keeps its verdicts, not its photos).
                  <EmptyState title={t("noneKept")}>{t("noneKeptHint", { count: mission.approved_images })}</EmptyState>
                ) : (
                  <EmptyState title={t("noneYet")}>{t("noneYetHint")}</EmptyState>
                )}
              </div>
            ) : (
              <SubmissionList
                submissions={list.data.data}
                missionBounds={bounds}
                selectedId={selectedId}
                hoveredId={hoveredId}
                onSelect={setSelectedId}
                onHover={setHoveredId}
              />
            )}
          </div>
          {pages > 1 ? (
            <nav aria-label={t("pagesLabel")} className="flex items-center justify-between text-xs text-slate-600">
              <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t("previous")}
              </Button>
              <span>{t("page", { page, pages })}</span>
              <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t("next")}
              </Button>
            </nav>
          ) : null}
        </aside>
        <div className="relative order-1 h-[60vh] min-h-[24rem] overflow-hidden rounded-lg border border-slate-200 lg:order-2 lg:h-[calc(100vh-13rem)]">
          <MissionMap
            bounds={bounds}
            points={points.data ?? null}
            selectedId={selectedId}
            hoveredId={hoveredId}
            onSelect={setSelectedId}
            onHover={setHoveredId}
          />
          {points.error ? (
            <div className="absolute bottom-10 start-3 max-w-sm">
              <ErrorState title={t("mapFailed")}>{points.error.message}</ErrorState>
            </div>
          ) : null}
          {selectedId ? (
            <div className="absolute inset-2 z-10 sm:inset-auto sm:bottom-2 sm:end-2 sm:top-2 sm:w-[26rem]">
              <SubmissionPanel key={selectedId} submissionId={selectedId} onClose={() => setSelectedId(null)} />
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
