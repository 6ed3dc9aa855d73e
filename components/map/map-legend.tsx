import { useTranslations } from "next-intl";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { STATUS_COLOURS, SUBMISSION_STATUSES, type SubmissionStatus } from "./layers/layer-styles";

export interface MapLegendProps {
  /** Submissions per status, shown beside each label when given. */
  counts?: Partial<Record<SubmissionStatus, number>>;
  /** Heading of the legend (also its accessible name). */
  title?: string;
  className?: string;
}

/** What the submission colours mean; a plain list, so screen readers get it as text. */
export function MapLegend({ counts, title, className }: MapLegendProps) {
  const t = useTranslations("dashboard.map.legend");
  const locale = useFormatLocale();
  const heading = title ?? t("title");
  return (
    <section aria-label={heading} className={`rounded-md border border-slate-200 bg-white/95 p-3 text-sm shadow-sm ${className ?? ""}`}>
      <h2 className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{heading}</h2>
      <ul className="space-y-1.5">
        {SUBMISSION_STATUSES.map((status) => (
          <li key={status} className="flex items-center gap-2 text-slate-800">
            <span
              aria-hidden
              className="inline-block size-3.5 shrink-0 rounded-full border-2 border-white outline outline-slate-300"
              style={{ backgroundColor: STATUS_COLOURS[status] }}
            />
            <span>{t(`statuses.${status}`)}</span>
            {counts?.[status] !== undefined && <span className="ms-auto ps-3 text-slate-600 tabular-nums">{counts[status]?.toLocaleString(locale)}</span>}
          </li>
        ))}
        <li className="flex items-center gap-2 pt-1 text-slate-600">
          <span aria-hidden className="inline-flex size-4 shrink-0 items-center justify-center rounded-full bg-slate-700 text-[9px] font-bold text-white">
            12
          </span>
          <span>{t("cluster")}</span>
        </li>
      </ul>
    </section>
  );
}
