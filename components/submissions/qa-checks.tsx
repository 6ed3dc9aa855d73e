"use client";
import { useServerText } from "@/components/ui/use-server-text";
import { QA_CHECK_LABELS, qaFigure, qaSentence } from "./qa-check-display";
import type { QaCheck } from "./types";

/** The QA verdict of one photo: every check with its measured value in words, failures first and marked. */
export function QaChecks({ checks }: { checks: QaCheck[] | null }) {
  const serverText = useServerText();
  if (!checks) return <p className="text-sm text-slate-500">QA has not run on this photo yet.</p>;
  const ordered = [...checks].sort((a, b) => Number(a.passed) - Number(b.passed));
  return (
    <ul className="flex flex-col gap-1.5" aria-label="QA checks">
      {ordered.map((c) => {
        const figure = qaFigure(c);
        return (
          <li
            key={c.check}
            data-passed={c.passed}
            data-check={c.check}
            className={`rounded-md border px-3 py-2 text-sm ${c.passed ? "border-slate-200 bg-white" : "border-red-300 bg-red-50"}`}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-2">
              <span className={`font-medium ${c.passed ? "text-slate-800" : "text-red-900"}`}>
                <span aria-hidden className="me-1.5">
                  {c.passed ? "✓" : "✗"}
                </span>
                {QA_CHECK_LABELS[c.check]}
                <span className="sr-only">{c.passed ? " passed" : " failed"}</span>
              </span>
              <span className="text-xs tabular-nums text-slate-600" data-testid="qa-figure">
                {figure.measured}
                {figure.threshold ? <span className="text-slate-500"> · {figure.threshold}</span> : null}
              </span>
            </div>
            {!c.passed ? <p className="mt-1 text-xs text-red-800">{serverText(qaSentence(c), c.message)}</p> : null}
          </li>
        );
      })}
    </ul>
  );
}
