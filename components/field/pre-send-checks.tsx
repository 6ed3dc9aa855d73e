"use client";
// The checks on the phone before sending (lib/field/pre-send-checks.ts): pass / fail with the
// instruction the server would give, while the zoomer can still fix it. Sending stays allowed.
import { useTranslations } from "next-intl";
import type { PreSendCheck } from "@/lib/field/pre-send-checks";

const MARKS: Record<PreSendCheck["status"], { mark: string; tone: string }> = {
  passed: { mark: "✓", tone: "bg-emerald-100 text-emerald-800" },
  failed: { mark: "✗", tone: "bg-red-100 text-red-800" },
  not_evaluated: { mark: "–", tone: "bg-slate-100 text-slate-600" },
};

export function PreSendChecks({ checks }: { checks: PreSendCheck[] }) {
  const t = useTranslations("field.preSend");
  if (checks.length === 0) return null;
  return (
    <section aria-label={t("label")} className="flex flex-col gap-1" data-testid="pre-send-checks">
      <h2 className="text-sm font-semibold text-slate-700">{t("heading")}</h2>
      <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
        {checks.map((c) => (
          <li key={c.name} className="flex gap-2 p-2 text-sm" data-check={c.name} data-outcome={c.status}>
            <span aria-hidden className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${MARKS[c.status].tone}`}>{MARKS[c.status].mark}</span>
            <span className="flex min-w-0 flex-col">
              <span>
                <span className="font-semibold">{t(c.name)}</span> · {t(c.status)}
              </span>
              <span className="text-slate-700">{c.status === "failed" && c.instruction ? c.instruction : c.message}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500">{t("maySend")}</p>
    </section>
  );
}
