"use client";
// Open missions near the zoomer: anyone may send photos to these, no task to take.
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { MissionOutline } from "./mission-outline";
import type { OpenMission } from "./mission-submit";
import type { Nearby } from "./use-nearby";
import type { Position } from "./types";

function describeDistance(m: number) {
  if (m === 0) return "You are inside the area";
  return m < 1000 ? `${m} m away` : `${(m / 1000).toFixed(1)} km away`;
}

export function MissionList({ missions, position, radiusKm, onSelect, onRetry }: { missions: Nearby<OpenMission>; position: Position; radiusKm: number; onSelect: (m: OpenMission) => void; onRetry: () => void }) {
  if (missions.status === "idle") return null;
  if (missions.status === "loading") return <LoadingRows rows={3} label="Looking for open missions" />;
  if (missions.status === "error") {
    return (
      <ErrorState title="Could not load the missions" action={<RetryButton onClick={onRetry} />}>
        {missions.error}
      </ErrorState>
    );
  }
  if (missions.data.length === 0) {
    return <EmptyState title="No open missions nearby">Nothing within {radiusKm} km. Try again later or somewhere else.</EmptyState>;
  }
  return (
    <ul className="flex flex-col gap-3" aria-busy={missions.refreshing}>
      {missions.data.map((m) => (
        <li key={m.id}>
          <button type="button" onClick={() => onSelect(m)} className="flex w-full items-center gap-3 rounded-lg border border-slate-200 p-3 text-left hover:border-emerald-600 focus-visible:outline-2 focus-visible:outline-emerald-600" data-testid="open-mission">
            <MissionOutline bounds={m.bounds} position={position} title={m.title} />
            <span className="flex flex-col gap-1">
              <span className="font-semibold">{m.title}</span>
              <span className="text-sm text-slate-600">{describeDistance(m.distance_m)}</span>
              <span className="text-sm text-slate-600">{m.images_still_needed} of {m.required_images} photos still needed</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function RetryButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} className="min-h-11 self-start rounded-md border border-red-300 bg-white px-3 py-2 font-medium text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-700">
      Try again
    </button>
  );
}
