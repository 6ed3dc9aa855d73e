"use client";
// "240 m · NE" with a small arrow turned to the bearing; screen readers hear it in words.
import { useLocale, useTranslations } from "next-intl";
import { formatDistance, spokenDistance } from "./task-format";
import { compassAbbreviation, type Way } from "./task-geometry";

export function WayToTarget({ way, className = "" }: { way: Way | null; className?: string }) {
  const t = useTranslations("field");
  const locale = useLocale();
  if (!way) return <span className={`text-slate-600 ${className}`}>{t("tasks.chooseLocation")}</span>;
  if (way.distanceM < 10) return <span className={`font-medium text-emerald-800 ${className}`}>{t("tasks.youAreThere")}</span>;
  const point = compassAbbreviation(way.bearingDeg);
  return (
    <span className={`inline-flex items-center gap-1.5 ${className}`} data-testid="task-way">
      <svg viewBox="0 0 16 16" aria-hidden className="h-4 w-4 shrink-0 text-blue-600" style={{ transform: `rotate(${way.bearingDeg}deg)` }}>
        <path d="M8 1 L13 14 L8 11 L3 14 Z" fill="currentColor" />
      </svg>
      <span aria-hidden className="font-medium tabular-nums">
        {formatDistance(way.distanceM, locale)} · {t(`compassShort.${point}`)}
      </span>
      <span className="sr-only">{t("tasks.wayTo", { distance: spokenDistance(way.distanceM, locale), direction: t(`compass.${point}`) })}</span>
    </span>
  );
}
