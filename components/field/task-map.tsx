// The task's target on a small drawing to scale: the target, where the zoomer stands and the way
// between them, north up. No tiles to download in the field (like MissionOutline).
import { useLocale, useTranslations } from "next-intl";
import type { LatLng } from "@/lib/geo/bearing";
import { spokenDistance } from "./task-format";
import { compassAbbreviation, locatorLayout, wayTo } from "./task-geometry";

const SIZES = {
  sm: { width: 100, height: 100, className: "h-24 w-24 shrink-0" },
  lg: { width: 160, height: 100, className: "w-full" },
} as const;

export function TaskMap({ target, name, position, size = "sm" }: { target: LatLng; name: string; position: LatLng | null; size?: keyof typeof SIZES }) {
  const { width, height, className } = SIZES[size];
  const layout = locatorLayout(target, position, { width, height });
  const way = wayTo(target, position);
  const t = useTranslations("field");
  const locale = useLocale();
  const label = way
    ? t("tasks.mapWay", { name, distance: spokenDistance(way.distanceM, locale), direction: t(`compass.${compassAbbreviation(way.bearingDeg)}`) })
    : t("tasks.map", { name });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className={`${className} rounded-md border border-slate-200 bg-emerald-50`}>
      {/* A faint grid: 4 × 4 squares, so the drawing reads as a map, not a diagram. */}
      <g stroke="rgb(16 185 129 / 0.15)" strokeWidth="1" vectorEffect="non-scaling-stroke">
        {[1, 2, 3].map((i) => (
          <line key={`v${i}`} x1={(width * i) / 4} y1="0" x2={(width * i) / 4} y2={height} />
        ))}
        {[1, 2, 3].map((i) => (
          <line key={`h${i}`} x1="0" y1={(height * i) / 4} x2={width} y2={(height * i) / 4} />
        ))}
      </g>
      {/* North is up. */}
      <g transform={`translate(${width - 9} 4)`} fill="rgb(51 65 85)">
        <polygon points="0,0 3.5,8 -3.5,8" />
        <text x="0" y="16" textAnchor="middle" fontSize="7" fontWeight="600" fontFamily="inherit">
          {t("compassShort.N")}
        </text>
      </g>
      {layout.line && (
        <line
          x1={layout.line.from.x}
          y1={layout.line.from.y}
          x2={layout.line.to.x}
          y2={layout.line.to.y}
          stroke="rgb(37 99 235)"
          strokeWidth={size === "lg" ? 2 : 1.5}
          strokeDasharray="4 3"
          strokeLinecap="round"
        />
      )}
      {layout.arrowhead && <polygon points={layout.arrowhead} fill="rgb(37 99 235)" />}
      {/* The target: a ring and its centre. */}
      <circle cx={layout.target.x} cy={layout.target.y} r="6" fill="rgb(225 29 72 / 0.18)" stroke="rgb(190 18 60)" strokeWidth="1.5" />
      <circle cx={layout.target.x} cy={layout.target.y} r="2" fill="rgb(190 18 60)" />
      {layout.you && <circle cx={layout.you.x} cy={layout.you.y} r="4" fill="rgb(37 99 235)" stroke="white" strokeWidth="1.5" />}
    </svg>
  );
}
