import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

export type Tone = "neutral" | "info" | "success" | "warning" | "danger";

const tones: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-300",
  info: "bg-sky-50 text-sky-800 ring-sky-300",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  warning: "bg-amber-50 text-amber-900 ring-amber-300",
  danger: "bg-red-50 text-red-800 ring-red-300",
};

export function Badge({ tone = "neutral", children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

const STATUS_TONES: Record<string, Tone> = {
  active: "info",
  completed: "success",
  cancelled: "neutral",
  received: "neutral",
  processing: "warning",
  approved: "success",
  rejected: "danger",
  succeeded: "success",
  failed: "danger",
  pending: "warning",
  delivering: "warning",
  disabled: "neutral",
};

/** A mission's, submission's or delivery's status in the reader's language (the raw value when the catalogue has none). */
export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("dashboard.status");
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{t.has(status) ? t(status) : status}</Badge>;
}
