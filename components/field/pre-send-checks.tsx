"use client";
// The checks on the phone before sending (lib/field/pre-send-checks.ts): pass / fail with the
// instruction the server would give, while the zoomer can still fix it. Sending stays allowed.
import type { PreSendCheck } from "@/lib/field/pre-send-checks";

const LABELS: Record<PreSendCheck["name"], string> = {
  location_match: "Where you stand",
  inside_bounds: "Inside the area",
  angle_match: "Which way you face",
  time_of_day: "Light",
  window: "Time window",
  sharpness: "Sharpness",
  exposure: "Brightness",
  duplicate: "New photo",
};
const MARKS: Record<PreSendCheck["status"], { mark: string; tone: string; word: string }> = {
  passed: { mark: "✓", tone: "bg-emerald-100 text-emerald-800", word: "OK" },
  failed: { mark: "✗", tone: "bg-red-100 text-red-800", word: "Check this" },
  not_evaluated: { mark: "–", tone: "bg-slate-100 text-slate-600", word: "Not checked" },
};

export function PreSendChecks({ checks, photoName }: { checks: PreSendCheck[]; photoName?: string }) {
  if (checks.length === 0) return null;
  const failed = checks.filter((c) => c.status === "failed").length;
  return (
    <section aria-label={photoName ? `Checks of ${photoName} on this phone` : "Checks on this phone"} className="flex min-w-0 flex-col gap-1" data-testid="pre-send-checks" data-failed={failed}>
      <h2 className="text-sm font-semibold text-slate-700">
        Before you send{photoName ? <span className="break-all font-normal"> · {photoName}</span> : " (checked on this phone)"}
      </h2>
      <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
        {checks.map((c) => (
          <li key={c.name} className="flex gap-2 p-2 text-sm" data-check={c.name} data-outcome={c.status}>
            <span aria-hidden className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${MARKS[c.status].tone}`}>{MARKS[c.status].mark}</span>
            <span className="flex min-w-0 flex-col">
              <span>
                <span className="font-semibold">{LABELS[c.name]}</span> · {MARKS[c.status].word}
              </span>
              <span className="break-words text-slate-700">{c.status === "failed" && c.instruction ? c.instruction : c.message}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500">{failed > 0 ? "You may still send: the server checks the photo itself, and may ask for a retake." : "You may send: the server checks the photo itself too."}</p>
    </section>
  );
}
