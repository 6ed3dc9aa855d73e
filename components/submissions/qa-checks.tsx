"use client";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { useServerText } from "@/components/ui/use-server-text";
import { qaCheckLabel, qaFigure, qaSentence, type QaWords } from "./qa-check-display";
import type { QaCheck } from "./types";

/** The QA verdict of one photo: every check with its measured value in words, failures first and marked. */
export function QaChecks({ checks }: { checks: QaCheck[] | null }) {
  const serverText = useServerText();
  const translate = useTranslations("dashboard.submissions.qa");
  const locale = useFormatLocale();
  const words = useMemo<QaWords>(() => ({ t: (key, values) => translate(key as never, values as never), locale }), [translate, locale]);
  if (!checks) return <p className="text-sm text-slate-500">{words.t("notRun")}</p>;
  const ordered = [...checks].sort((a, b) => Number(a.passed) - Number(b.passed));
  return (
    <ul className="flex flex-col gap-1.5" aria-label={words.t("label")}>
      {ordered.map((c) => {
        const figure = qaFigure(c, words);
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
                {qaCheckLabel(c.check, words)}
                <span className="sr-only"> {words.t(c.passed ? "passed" : "failed")}</span>
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
