"use client";
// The authenticity check's signals as a list: each with a mark, its name (in the reader's words)
// and its sentence.
import { useTranslations } from "next-intl";
import type { SignalView } from "./authenticity-display";
import { signalText } from "./signal-text";
import { useOrderWords } from "./use-order-words";

const SIGNAL_STYLES: Record<SignalView["verdict"], { mark: string; icon: string }> = {
  failed: { mark: "text-red-800", icon: "✗" },
  passed: { mark: "text-emerald-800", icon: "✓" },
  not_evaluated: { mark: "text-slate-500", icon: "–" },
};

export function SignalList({ signals, label }: { signals: SignalView[]; label?: string }) {
  const t = useTranslations("orders.signals");
  const words = useOrderWords();
  return (
    <ul aria-label={label ?? t("label")} className="mt-1 flex flex-col gap-0.5" data-testid="authenticity-signals">
      {signals.map((s) => (
        <li key={s.signal} data-signal={s.signal} data-verdict={s.verdict} className="text-xs">
          <span aria-hidden className={`me-1.5 ${SIGNAL_STYLES[s.verdict].mark}`}>
            {SIGNAL_STYLES[s.verdict].icon}
          </span>
          <span className="font-medium text-slate-800">{t("name", { name: t.has(s.signal) ? t(s.signal) : s.label })}</span>{" "}
          <span className="text-slate-600">{signalText(s.coded, s.message, words)}</span>
        </li>
      ))}
    </ul>
  );
}
