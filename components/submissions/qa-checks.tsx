import type { QaCheck } from "./types";

const LABELS: Record<QaCheck["check"], string> = {
  decodable: "Decodable image",
  exif_present: "EXIF present",
  gps_present: "GPS present",
  inside_bounds: "Inside the mission area",
  capture_time: "Capture time",
  resolution: "Resolution",
  sharpness: "Sharpness",
  exposure: "Exposure",
  duplicate: "Not a duplicate",
};

function show(value: QaCheck["value"] | QaCheck["threshold"]): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return String(value);
}

/** The QA verdict of one photo: every check with its measured value, failures first and marked. */
export function QaChecks({ checks }: { checks: QaCheck[] | null }) {
  if (!checks) return <p className="text-sm text-slate-500">QA has not run on this photo yet.</p>;
  const ordered = [...checks].sort((a, b) => Number(a.passed) - Number(b.passed));
  return (
    <ul className="flex flex-col gap-1.5" aria-label="QA checks">
      {ordered.map((c) => (
        <li
          key={c.check}
          data-passed={c.passed}
          className={`rounded-md border px-3 py-2 text-sm ${c.passed ? "border-slate-200 bg-white" : "border-red-300 bg-red-50"}`}
        >
          <div className="flex items-center justify-between gap-2">
            <span className={`font-medium ${c.passed ? "text-slate-800" : "text-red-900"}`}>
              <span aria-hidden className="mr-1.5">
                {c.passed ? "✓" : "✗"}
              </span>
              {LABELS[c.check]}
              <span className="sr-only">{c.passed ? " passed" : " failed"}</span>
            </span>
            <span className="text-xs tabular-nums text-slate-600">
              {show(c.value)}
              {c.threshold !== null ? <span className="text-slate-500"> / {show(c.threshold)}</span> : null}
            </span>
          </div>
          {!c.passed ? <p className="mt-1 text-xs text-red-800">{c.message}</p> : null}
        </li>
      ))}
    </ul>
  );
}
