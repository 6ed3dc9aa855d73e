"use client";
// The frame around every step of the order wizard: the steps as links (the current one marked,
// steps the API found problems in flagged), whether the draft is saved, a stale-draft warning
// with a way out, and Back / Next — which save first, so nothing typed is lost on the way.
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { errorsOfStep, neighbourSteps, stepHref, WIZARD_STEPS, type WizardStep } from "../wizard-steps";
import type { DraftSaver, DraftSnapshot } from "./draft-store";

const STATUS_TEXT = { saved: "saved", unsaved: "unsaved", saving: "saving", conflict: "notSaved", failed: "notSaved" } as const;

export function WizardFrame({
  step,
  draft,
  saver,
  children,
  onNext,
  nextLabel,
  aside,
}: {
  step: WizardStep;
  draft: DraftSnapshot;
  saver: DraftSaver;
  children: ReactNode;
  /** Checks the step before moving on; false keeps the user here (the step shows why). */
  onNext?: () => boolean;
  nextLabel?: string;
  aside?: ReactNode;
}) {
  const router = useRouter();
  const t = useTranslations("dashboard.wizard");
  const save = useTranslations("wizard.save");
  const [moving, setMoving] = useState(false);
  const { previous, next } = neighbourSteps(step);

  async function go(to: WizardStep) {
    setMoving(true);
    try {
      if (await saver.flush()) router.push(stepHref(to, draft.id));
    } finally {
      setMoving(false);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <nav aria-label={t("steps")}>
        <ol className="flex flex-wrap gap-x-1 gap-y-2">
          {WIZARD_STEPS.map((s, i) => {
            const current = s === step;
            const problems = Object.keys(errorsOfStep(draft.apiErrors, s)).length;
            return (
              <li key={s} className="flex items-center">
                <Link
                  href={stepHref(s, draft.id)}
                  aria-current={current ? "step" : undefined}
                  onClick={(e) => {
                    if (current) return;
                    e.preventDefault();
                    void go(s);
                  }}
                  className={`flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                    current ? "bg-emerald-50 text-emerald-900" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  <span
                    aria-hidden
                    className={`inline-flex size-6 items-center justify-center rounded-full text-xs ${current ? "bg-emerald-700 text-white" : "bg-slate-200 text-slate-700"}`}
                  >
                    {i + 1}
                  </span>
                  {t(`step.${s}`)}
                  {problems > 0 ? (
                    <span className="rounded-full bg-red-100 px-1.5 text-xs font-semibold text-red-800">
                      {problems}
                      <span className="sr-only"> {t("problems", { count: problems })}</span>
                    </span>
                  ) : null}
                </Link>
                {i < WIZARD_STEPS.length - 1 ? (
                  <span aria-hidden className="px-1 text-slate-400">
                    ›
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      </nav>

      {draft.status === "conflict" || draft.status === "failed" ? (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between"
        >
          <span>{draft.error?.kind === "refused" ? draft.error.message : draft.error ? save(draft.error.kind) : null}</span>
          {draft.status === "conflict" ? (
            <Button variant="secondary" size="sm" onClick={() => router.refresh()}>
              {t("loadLatest")}
            </Button>
          ) : (
            <Button variant="secondary" size="sm" onClick={() => void saver.flush()}>
              {t("saveAgain")}
            </Button>
          )}
        </div>
      ) : null}

      <div className={aside ? "grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" : ""}>
        <div className="flex min-w-0 flex-col gap-5">{children}</div>
        {aside}
      </div>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
        {previous ? (
          <Button variant="secondary" disabled={moving} onClick={() => void go(previous)}>
            {t("back")}
          </Button>
        ) : (
          <Link href="/orders/new" className={buttonClasses({ variant: "ghost" })}>
            {t("allDrafts")}
          </Link>
        )}
        {next ? (
          <Button
            disabled={moving || draft.status === "conflict"}
            onClick={() => {
              if (onNext && !onNext()) return;
              void go(next);
            }}
          >
            {nextLabel ? `${nextLabel} →` : t("next", { step: t(`step.${next}`) })}
          </Button>
        ) : null}
        <span role="status" className="ms-auto text-xs text-slate-500" data-testid="draft-save-status">
          {t(`status.${STATUS_TEXT[draft.status]}`)}
        </span>
      </div>
    </div>
  );
}
