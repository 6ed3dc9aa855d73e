// The phone's own evidence beside the photo's EXIF, in plain words for reviewers: how far the phone
// said it was from where the photo's GPS says, and how long after capture the photo was sent.
// The order photos' authenticity check judges the same distance (their review shows its verdict).
import type { components } from "@/lib/api-client/openapi-types";
import { describeCaptureToUpload, describeDeviceDistance } from "@/lib/field/describe-device-evidence";

type DeviceEvidence = components["schemas"]["DeviceEvidence"];

export function DeviceEvidenceNote({ evidence }: { evidence: DeviceEvidence | null | undefined }) {
  if (!evidence) return null;
  const lines = [
    describeDeviceDistance(evidence.distance_from_exif_m) ??
      (evidence.position ? `Phone reported its position (±${Math.round(evidence.position.accuracy_m)} m); the photo has no GPS to compare` : null),
    describeCaptureToUpload(evidence.capture_to_upload_s),
  ].filter((line): line is string => line !== null);
  if (lines.length === 0) return null;
  const far = (evidence.distance_from_exif_m ?? 0) > Math.max(200, (evidence.position?.accuracy_m ?? 0) * 3);
  return (
    <ul data-testid="device-evidence" aria-label="Device evidence" className={`text-xs ${far ? "text-amber-900" : "text-slate-600"}`}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
