import { useTranslations } from "next-intl";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatBytes } from "@/components/ui/format-bytes";
import type { SubmissionImage } from "./types";

// Coordinates keep the dot and six decimals in every language: they are copied into other tools.
function formatCoordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(6)}° ${value >= 0 ? positive : negative}`;
}

const ORIENTATIONS = new Set([1, 2, 3, 4, 5, 6, 7, 8]);

/** The metadata of one photo as a definition table; absent values say so instead of hiding. */
export function ExifTable({ image }: { image: SubmissionImage }) {
  const t = useTranslations("dashboard.submissions.exif");
  const locale = useFormatLocale();
  const metres = (value: number, digits: number) =>
    new Intl.NumberFormat(locale, { style: "unit", unit: "meter", maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
  const decimal = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(value);
  const { exif } = image;
  const device = [exif.make, exif.model].filter(Boolean).join(" ") || null;
  const capture = exif.captured_at_local
    ? `${exif.captured_at_local.replace("T", " ")}${exif.utc_offset ? ` (UTC${exif.utc_offset})` : exif.captured_at_source === "assumed_utc" ? ` ${t("noOffset")}` : ""}`
    : null;
  const gps = exif.gps;
  const rows: [string, string | null][] = [
    [t("captured"), capture],
    [t("device"), device],
    [t("lens"), exif.lens_model],
    [t("gps"), gps ? `${formatCoordinate(gps.lat, t("north"), t("south"))}, ${formatCoordinate(gps.lng, t("east"), t("west"))}` : null],
    [t("altitude"), gps?.altitude_m != null ? metres(gps.altitude_m, 1) : null],
    [t("accuracy"), gps?.accuracy_m != null ? `± ${metres(gps.accuracy_m, 1)}` : null],
    [t("direction"), gps?.direction_deg != null ? `${decimal(gps.direction_deg)}° ${gps.direction_ref === "magnetic" ? t("magnetic") : t("true")}` : null],
    [
      t("orientation"),
      exif.orientation != null ? (ORIENTATIONS.has(exif.orientation) ? t(`orientations.${exif.orientation}`) : String(exif.orientation)) : null,
    ],
    [t("dimensions"), image.width && image.height ? `${image.width} × ${image.height} px` : null],
    [t("file"), `${image.original_name ?? t("photo")} · ${image.content_type} · ${formatBytes(image.byte_size, locale)}`],
    [t("software"), exif.software],
  ];
  return (
    <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm" aria-label={t("label")}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className={value ? "break-words text-slate-900" : "text-slate-500"}>{value ?? t("notRecorded")}</dd>
        </div>
      ))}
      <dt className="text-slate-500">SHA-256</dt>
      <dd className="break-all font-mono text-xs text-slate-700">{image.sha256}</dd>
    </dl>
  );
}
