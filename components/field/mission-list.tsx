"use client";
// Open missions near the zoomer: anyone may send photos to these, no task to take.
import { useLocale, useTranslations } from "next-intl";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { formatDistance } from "./task-format";
import { MissionOutline } from "./mission-outline";
import type { OpenMission } from "./mission-submit";
import type { Nearby } from "./use-nearby";
import type { Position } from "./types";

export function MissionList({
  missions,
  position,
  radiusKm,
  onSelect,
  onRetry,
}: {
  missions: Nearby<OpenMission>;
  position: Position;
  radiusKm: number;
  onSelect: (m: OpenMission) => void;
  onRetry: () => void;
}) {
  const t = useTranslations("field.missions");
  const locale = useLocale();
  if (missions.status === "idle") return null;
  if (missions.status === "loading") return <LoadingRows rows={3} label={t("loading")} />;
  if (missions.status === "error") {
    return (
      <ErrorState title={t("loadError")} action={<RetryButton onClick={onRetry} />}>
        {missions.error}
      </ErrorState>
    );
  }
  if (missions.data.length === 0) {
    return <EmptyState title={t("emptyTitle")}>{t("emptyBody", { radius: radiusKm })}</EmptyState>;
  }
  return (
    <ul className="flex flex-col gap-3" aria-busy={missions.refreshing}>
      {missions.data.map((m) => (
        <li key={m.id}>
          <button
            type="button"
            onClick={() => onSelect(m)}
            className="flex w-full items-center gap-3 rounded-lg border border-slate-200 p-3 text-start hover:border-emerald-600 focus-visible:outline-2 focus-visible:outline-emerald-600"
            data-testid="open-mission"
          >
            <MissionOutline bounds={m.bounds} position={position} title={m.title} />
            <span className="flex flex-col gap-1">
              <bdi translate="no" className="font-semibold">
                {m.title}
              </bdi>
              <span className="text-sm text-slate-600">{m.distance_m === 0 ? t("inside") : t("away", { distance: formatDistance(m.distance_m, locale) })}</span>
              <span className="text-sm text-slate-600">{t("stillNeeded", { needed: m.images_still_needed, required: m.required_images })}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function RetryButton({ onClick }: { onClick: () => void }) {
  const t = useTranslations("field.missions");
  return (
    <button
      type="button"
      onClick={onClick}
      className="min-h-11 self-start rounded-md border border-red-300 bg-white px-3 py-2 font-medium text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-700"
    >
      {t("retry")}
    </button>
  );
}
