// The phone's own evidence beside the photo's EXIF, in plain words for reviewers: how far the phone
// said it was from where the photo's GPS says, and how long after capture the photo was sent.
// The order photos' authenticity check judges the same distance (their review shows its verdict).
// In the reader's language (dashboard.submissions.evidence.*); distances metric, as the check's.
"use client";
import { useTranslations } from "next-intl";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import type { components } from "@/lib/api-client/openapi-types";
import { formatDistanceIn } from "@/lib/geo/format-measure";

type DeviceEvidence = components["schemas"]["DeviceEvidence"];

export function DeviceEvidenceNote({ evidence }: { evidence: DeviceEvidence | null | undefined }) {
  const t = useTranslations("dashboard.submissions.evidence");
  const locale = useFormatLocale();
  if (!evidence) return null;
  const metres = (m: number) => formatDistanceIn(m, locale);
  const distance =
    evidence.distance_from_exif_m !== null
      ? t("distance", { distance: metres(evidence.distance_from_exif_m) })
      : evidence.position
        ? t("noGps", { accuracy: metres(evidence.position.accuracy_m) })
        : null;
  const lines = [distance, sentAfter(evidence.capture_to_upload_s, t)].filter((line): line is string => line !== null);
  if (lines.length === 0) return null;
  const far = (evidence.distance_from_exif_m ?? 0) > Math.max(200, (evidence.position?.accuracy_m ?? 0) * 3);
  return (
    <ul data-testid="device-evidence" aria-label={t("label")} className={`text-xs ${far ? "text-amber-900" : "text-slate-600"}`}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** "Sent 3 h 10 min after it was taken". */
function sentAfter(
  seconds: number | null,
  t: (key: "sentBefore" | "sent" | "underMinute" | "minutes" | "hours" | "days", values?: Record<string, number | string>) => string,
): string | null {
  if (seconds === null) return null;
  if (seconds < 0) return t("sentBefore");
  const minutes = Math.round(seconds / 60);
  const after =
    minutes < 1
      ? t("underMinute")
      : minutes < 60
        ? t("minutes", { minutes })
        : minutes < 48 * 60
          ? t("hours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
          : t("days", { days: Math.round(minutes / 1440) });
  return t("sent", { after });
}
