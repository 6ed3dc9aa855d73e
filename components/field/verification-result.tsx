"use client";
// What verification made of the task's photo: the verdict, every check with its message (passed,
// failed or not evaluated — never a pass without evidence), and after a rejection what to do
// differently and where the retake is.
import { useTranslations } from "next-intl";
import { MAX_RETAKES, namedChecks, type CheckOutcome } from "./task-format";
import type { FieldTask, TaskVerification } from "./types";
import { useInstructionLines, useServerText } from "@/components/ui/use-server-text";

const OUTCOMES: Record<CheckOutcome, { word: "passed" | "failed" | "notEvaluated"; mark: string; tone: string }> = {
  passed: { word: "passed", mark: "✓", tone: "bg-emerald-100 text-emerald-800" },
  failed: { word: "failed", mark: "✗", tone: "bg-red-100 text-red-800" },
  not_evaluated: { word: "notEvaluated", mark: "–", tone: "bg-slate-100 text-slate-600" },
};

export function VerificationResult({
  task,
  verification,
  onOpenRetake,
  findingRetake,
}: {
  task: FieldTask;
  verification: TaskVerification;
  onOpenRetake: () => void;
  findingRetake: boolean;
}) {
  const t = useTranslations("field.verdict");
  const checkName = useTranslations("field.checks");
  const serverText = useServerText();
  const instructions = useInstructionLines()(verification.instruction_codes, verification.instructions);
  const approved = verification.status === "approved";
  return (
    <div className="flex flex-col gap-4" data-testid="task-verification" data-status={verification.status}>
      {approved ? (
        <div className="rounded-md bg-emerald-50 p-4 text-emerald-900">
          <p className="font-semibold">{t("approvedTitle")}</p>
          <p className="mt-1 text-sm">{t("approvedBody")}</p>
        </div>
      ) : (
        <div className="rounded-md bg-red-50 p-4 text-red-900">
          <p className="font-semibold">{t("rejectedTitle")}</p>
          <p className="mt-1 text-sm">{t("rejectedBody")}</p>
        </div>
      )}

      {!approved && instructions.length > 0 && (
        <div className="rounded-md border-s-4 border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="verification-instructions">
          <h2 className="font-semibold">{t("doDifferently")}</h2>
          <ul className="mt-1 list-disc ps-5">
            {instructions.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}

      {task.status === "failed" && (
        <div className="flex flex-col gap-2 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950" data-testid="retake-opened">
          <p>{t.rich("retakeOpened", { attempt: task.attempt + 1, max: MAX_RETAKES, b: (chunks) => <span className="font-semibold">{chunks}</span> })}</p>
          <button
            type="button"
            onClick={onOpenRetake}
            disabled={findingRetake}
            className="min-h-11 self-start rounded-md bg-sky-700 px-4 py-2 font-semibold text-white hover:bg-sky-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-700 disabled:opacity-60"
          >
            {findingRetake ? t("openingRetake") : t("goToRetake")}
          </button>
        </div>
      )}
      {task.status === "given_up" && <p className="rounded-md bg-slate-100 p-3 text-sm text-slate-800">{t("givenUp")}</p>}

      <section aria-labelledby="checks-heading" className="flex flex-col gap-2">
        <h2 id="checks-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          {t("checks")}
        </h2>
        <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
          {namedChecks(verification).map(({ name, label, outcome, check }) => (
            <li key={name} className="flex gap-3 p-3" data-testid="verification-check" data-check={name} data-outcome={outcome}>
              <span aria-hidden className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${OUTCOMES[outcome].tone}`}>
                {OUTCOMES[outcome].mark}
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="text-sm">
                  <span className="font-semibold">{checkName.has(name) ? checkName(name) : label}</span>
                  <span className="text-slate-500"> · </span>
                  <span className={outcome === "failed" ? "font-medium text-red-800" : outcome === "passed" ? "text-emerald-800" : "text-slate-600"}>
                    {t(OUTCOMES[outcome].word)}
                  </span>
                </span>
                <span className="text-sm text-slate-700">
                  {serverText(check.code ? { code: check.code, params: check.params ?? {} } : null, check.message)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
