"use client";
import { DataTable } from "@/components/ui/data-table";
import { useScheduleDescription } from "./use-schedule-description";
import { formatClock, formatLocalDate } from "./translate";
import type { OrderSchedule, Recurring } from "./types";
import { useOrderWords } from "./use-order-words";

/** A recurring order's schedule in words (the season's months for `where`, its first location) and its next cycles, each window in local time. */
export function OrderCycles({ schedule, recurring, where }: { schedule: OrderSchedule; recurring: Recurring | null; where: { lat: number } | undefined }) {
  const words = useOrderWords();
  const describe = useScheduleDescription();
  const { t, locale } = words;
  const windowText = (w: OrderSchedule["cycles"][number]["windows"][number]) => {
    const [start, end] = w.local_window?.split(/[–-]/) ?? [];
    if (!start || !end) return w.local_window ?? t("cycles.anyTime");
    const text = `${formatClock(start.trim(), locale)}–${formatClock(end.trim(), locale)}`;
    return w.crosses_midnight ? t("cycles.pastMidnight", { window: text }) : text;
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-900" data-testid="schedule-description">
        {describe(recurring, where) ?? schedule.description}
      </p>
      {schedule.cycles.length === 0 ? (
        <p className="text-sm text-slate-600">{t("cycles.noneScheduled")}</p>
      ) : (
        <DataTable
          caption={t("cycles.caption")}
          variant="inset"
          columns={[{ label: t("cycles.cycle") }, { label: t("cycles.dateWindow") }, { label: t("cycles.state") }]}
        >
          <tbody className="divide-y divide-slate-100">
            {schedule.cycles.map((cycle) => (
              <tr key={cycle.index}>
                <td className="px-3 py-2 tabular-nums">{cycle.index + 1}</td>
                <td className="px-3 py-2">
                  <time dateTime={cycle.local_date} className="whitespace-nowrap">
                    {formatLocalDate(cycle.local_date, locale, { year: true })}
                  </time>
                  {cycle.windows.map((w) => (
                    <div key={w.time_zone} className="text-xs text-slate-700">
                      {windowText(w)} <span className="text-slate-500">{w.time_zone}</span>
                    </div>
                  ))}
                </td>
                <td className="px-3 py-2 text-xs">
                  {t(`cycles.status.${cycle.status}`)}
                  {cycle.skip_reason
                    ? ` (${words.has(`cycles.skipReason.${cycle.skip_reason}`) ? t(`cycles.skipReason.${cycle.skip_reason}`) : cycle.skip_reason.replaceAll("_", " ")})`
                    : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  );
}
