import type { SubmissionImage } from "./types";

const bytes = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 });

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${bytes.format(n / 1024)} KB`;
  return `${bytes.format(n / (1024 * 1024))} MB`;
}

function formatCoordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(6)}° ${value >= 0 ? positive : negative}`;
}

const ORIENTATIONS: Record<number, string> = {
  1: "Normal",
  2: "Mirrored",
  3: "Rotated 180°",
  4: "Mirrored, rotated 180°",
  5: "Mirrored, rotated 90° CCW",
  6: "Rotated 90° CW",
  7: "Mirrored, rotated 90° CW",
  8: "Rotated 90° CCW",
};

/** The metadata of one photo as a definition table; absent values say so instead of hiding. */
export function ExifTable({ image }: { image: SubmissionImage }) {
  const { exif } = image;
  const device = [exif.make, exif.model].filter(Boolean).join(" ") || null;
  const capture = exif.captured_at_local
    ? `${exif.captured_at_local.replace("T", " ")}${exif.utc_offset ? ` (UTC${exif.utc_offset})` : exif.captured_at_source === "assumed_utc" ? " (no offset recorded; read as UTC)" : ""}`
    : null;
  const gps = exif.gps;
  const rows: [string, string | null][] = [
    ["Captured", capture],
    ["Device", device],
    ["Lens", exif.lens_model],
    ["GPS", gps ? `${formatCoordinate(gps.lat, "N", "S")}, ${formatCoordinate(gps.lng, "E", "W")}` : null],
    ["Altitude", gps?.altitude_m != null ? `${gps.altitude_m.toFixed(1)} m` : null],
    ["Accuracy", gps?.accuracy_m != null ? `± ${gps.accuracy_m.toFixed(1)} m` : null],
    ["Direction", gps?.direction_deg != null ? `${gps.direction_deg.toFixed(1)}° ${gps.direction_ref === "magnetic" ? "magnetic" : "true"}` : null],
    ["Orientation", exif.orientation != null ? (ORIENTATIONS[exif.orientation] ?? String(exif.orientation)) : null],
    ["Dimensions", image.width && image.height ? `${image.width} × ${image.height} px` : null],
    ["File", `${image.original_name ?? "photo"} · ${image.content_type} · ${formatBytes(image.byte_size)}`],
    ["Software", exif.software],
  ];
  return (
    <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm" aria-label="Photo metadata">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className={value ? "break-words text-slate-900" : "text-slate-500"}>{value ?? "not recorded"}</dd>
        </div>
      ))}
      <dt className="text-slate-500">SHA-256</dt>
      <dd className="break-all font-mono text-xs text-slate-700">{image.sha256}</dd>
    </dl>
  );
}
