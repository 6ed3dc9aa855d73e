"use client";
import { useTranslations } from "next-intl";
import { inputClasses } from "@/components/ui/field";
import { SUBMISSION_STATUSES, type SubmissionFilters, type SubmissionStatus } from "./types";

export function SubmissionFiltersBar({ filters, onChange }: { filters: SubmissionFilters; onChange: (next: SubmissionFilters) => void }) {
  const t = useTranslations("dashboard.submissions");
  const tStatus = useTranslations("dashboard.status");
  const toggle = (status: SubmissionStatus) => {
    const has = filters.statuses.includes(status);
    const statuses = has ? filters.statuses.filter((s) => s !== status) : [...filters.statuses, status];
    onChange({ ...filters, statuses });
  };
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="sr-only">{t("filters")}</legend>
      <div className="flex flex-wrap gap-1" role="group" aria-label={t("statusGroup")}>
        {SUBMISSION_STATUSES.map((status) => {
          const on = filters.statuses.length === 0 || filters.statuses.includes(status);
          return (
            <button
              key={status}
              type="button"
              aria-pressed={filters.statuses.includes(status)}
              onClick={() => toggle(status)}
              className={`rounded-full border px-2.5 py-1 text-xs font-medium capitalize focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                filters.statuses.includes(status)
                  ? "border-emerald-700 bg-emerald-700 text-white"
                  : on
                    ? "border-slate-300 bg-white text-slate-700"
                    : "border-slate-200 bg-slate-50 text-slate-500"
              }`}
            >
              {tStatus(status)}
            </button>
          );
        })}
      </div>
      <div className="grid grid-cols-2 gap-2">
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          {t("from")}
          <input
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => onChange({ ...filters, from: e.target.value })}
            className={`${inputClasses} py-1.5`}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-slate-600">
          {t("to")}
          <input
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => onChange({ ...filters, to: e.target.value })}
            className={`${inputClasses} py-1.5`}
          />
        </label>
      </div>
    </fieldset>
  );
}
