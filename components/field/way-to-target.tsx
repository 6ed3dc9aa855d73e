// "240 m · NE" with a small arrow turned to the bearing; screen readers hear it in words.
import { formatDistance, spokenDistance } from "./task-format";
import { compassAbbreviation, compassName, type Way } from "./task-geometry";

export function WayToTarget({ way, className = "" }: { way: Way | null; className?: string }) {
  if (!way) return <span className={`text-slate-600 ${className}`}>Choose your location to see the way</span>;
  if (way.distanceM < 10) return <span className={`font-medium text-emerald-800 ${className}`}>You are there</span>;
  return (
    <span className={`inline-flex items-center gap-1.5 ${className}`} data-testid="task-way">
      <svg viewBox="0 0 16 16" aria-hidden className="h-4 w-4 shrink-0 text-blue-600" style={{ transform: `rotate(${way.bearingDeg}deg)` }}>
        <path d="M8 1 L13 14 L8 11 L3 14 Z" fill="currentColor" />
      </svg>
      <span aria-hidden className="font-medium tabular-nums">
        {formatDistance(way.distanceM)} · {compassAbbreviation(way.bearingDeg)}
      </span>
      <span className="sr-only">
        {spokenDistance(way.distanceM)} to the {compassName(way.bearingDeg)}
      </span>
    </span>
  );
}
