// A small locator drawing for a phone: the mission's outline and where the zoomer stands, to scale
// (equirectangular, corrected for latitude). No tiles to download in the field.
interface Props {
  bounds: { coordinates: number[][][] };
  position: { lat: number; lng: number } | null;
  title: string;
}

export function MissionOutline({ bounds, position, title }: Props) {
  const ring = (bounds.coordinates[0] ?? []).map(([lng = 0, lat = 0]) => [lng, lat] as const);
  const points = position ? [...ring, [position.lng, position.lat] as const] : ring;
  const lats = points.map((p) => p[1]);
  const lngs = points.map((p) => p[0]);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const kx = Math.cos((midLat * Math.PI) / 180);
  const minX = Math.min(...lngs) * kx;
  const maxX = Math.max(...lngs) * kx;
  const minY = Math.min(...lats);
  const maxY = Math.max(...lats);
  const span = Math.max(maxX - minX, maxY - minY, 1e-6);
  const pad = span * 0.12;
  const size = 100;
  const scale = size / (span + 2 * pad);
  const project = ([lng, lat]: readonly [number, number]) => [((lng * kx - minX + pad) * scale).toFixed(2), ((maxY - lat + pad) * scale).toFixed(2)];
  const path = ring.map((p) => project(p).join(",")).join(" ");
  const me = position ? project([position.lng, position.lat]) : null;
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={`Outline of ${title}${position ? " and your position" : ""}`}
      className="h-28 w-28 shrink-0 rounded-md border border-slate-200 bg-emerald-50"
    >
      <polygon points={path} fill="rgb(16 185 129 / 0.25)" stroke="rgb(4 120 87)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
      {me && <circle cx={me[0]} cy={me[1]} r="3.5" fill="rgb(37 99 235)" stroke="white" strokeWidth="1.5" />}
    </svg>
  );
}
