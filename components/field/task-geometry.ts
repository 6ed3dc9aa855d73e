// Where a task's target lies from the zoomer, and how to draw the two on a small locator map:
// pure functions, so the page and its tests agree on every figure.
import { bearingDeg, distanceM, type LatLng } from "@/lib/geo/bearing";

const ABBREVIATIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
const NAMES = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"] as const;

const point = (bearing: number) => Math.round((((bearing % 360) + 360) % 360) / 45) % 8;

/** The nearest of the eight compass points, as a sign shows it ("NE"). */
export const compassAbbreviation = (bearing: number): string => ABBREVIATIONS[point(bearing)] ?? "N";

/** The same point in words, for screen readers ("north-east"). */
export const compassName = (bearing: number): string => NAMES[point(bearing)] ?? "north";

export interface Way {
  distanceM: number;
  bearingDeg: number;
}

/**
 * Distance and direction from the zoomer to the target: the API's figures when it measured them
 * from this position (the list does), else measured here (a single task is read without a point).
 */
export function wayTo(target: LatLng, position: LatLng | null, measured?: { distance_m: number | null; bearing_deg: number | null }): Way | null {
  if (measured && measured.distance_m !== null && measured.bearing_deg !== null) return { distanceM: measured.distance_m, bearingDeg: measured.bearing_deg };
  if (!position) return null;
  return { distanceM: Math.round(distanceM(position, target)), bearingDeg: Math.round(bearingDeg(position, target)) };
}

export interface MapPoint {
  x: number;
  y: number;
}

export interface LocatorLayout {
  target: MapPoint;
  you: MapPoint | null;
  /** The route from the zoomer to the target, stopping short of the target's mark. */
  line: { from: MapPoint; to: MapPoint } | null;
  /** The arrowhead at the end of the line, as SVG polygon points. */
  arrowhead: string | null;
}

const METRES_PER_DEGREE = 111_320;

/**
 * Both points to scale in a width × height box (equirectangular, corrected for latitude: exact
 * enough over the few hundred metres a task is walked). The box always spans at least `minSpanM`,
 * so standing on the target does not zoom in on GPS noise; the target sits in the middle when the
 * zoomer's position is unknown.
 */
export function locatorLayout(
  target: LatLng,
  position: LatLng | null,
  { width, height, minSpanM = 80, pad = 0.2, targetRadius = 6 }: { width: number; height: number; minSpanM?: number; pad?: number; targetRadius?: number },
): LocatorLayout {
  const kx = Math.cos((target.lat * Math.PI) / 180) * METRES_PER_DEGREE;
  // Metres east and north of the target.
  const you = position ? { x: (position.lng - target.lng) * kx, y: (position.lat - target.lat) * METRES_PER_DEGREE } : null;
  const xs = [0, you?.x ?? 0];
  const ys = [0, you?.y ?? 0];
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const spanX = Math.max(Math.max(...xs) - Math.min(...xs), minSpanM);
  const spanY = Math.max(Math.max(...ys) - Math.min(...ys), minSpanM);
  const scale = Math.min((width * (1 - 2 * pad)) / spanX, (height * (1 - 2 * pad)) / spanY);
  const project = (p: { x: number; y: number }): MapPoint => ({ x: round(width / 2 + (p.x - cx) * scale), y: round(height / 2 - (p.y - cy) * scale) });
  const targetPoint = project({ x: 0, y: 0 });
  const youPoint = you ? project(you) : null;
  if (!youPoint) return { target: targetPoint, you: null, line: null, arrowhead: null };

  const dx = targetPoint.x - youPoint.x;
  const dy = targetPoint.y - youPoint.y;
  const length = Math.hypot(dx, dy);
  // Closer than the mark and an arrowhead: the zoomer is there, no route to draw.
  const head = 7;
  if (length < targetRadius + head + 4) return { target: targetPoint, you: youPoint, line: null, arrowhead: null };
  const ux = dx / length;
  const uy = dy / length;
  const tip = { x: round(targetPoint.x - ux * (targetRadius + 2)), y: round(targetPoint.y - uy * (targetRadius + 2)) };
  const base = { x: tip.x - ux * head, y: tip.y - uy * head };
  const wing = head * 0.55;
  const arrowhead = [tip, { x: round(base.x - uy * wing), y: round(base.y + ux * wing) }, { x: round(base.x + uy * wing), y: round(base.y - ux * wing) }]
    .map((p) => `${p.x},${p.y}`)
    .join(" ");
  return { target: targetPoint, you: youPoint, line: { from: youPoint, to: { x: round(base.x), y: round(base.y) } }, arrowhead };
}

const round = (v: number) => Math.round(v * 100) / 100;
