import { DataTable } from "@/components/ui/data-table";
import type { OrderSchedule } from "./types";

const dayFormat = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A recurring order's schedule in words and its next cycles, each window in local time. */
export function OrderCycles({ schedule }: { schedule: OrderSchedule }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-900" data-testid="schedule-description">
        {schedule.description}
      </p>
      {schedule.cycles.length === 0 ? (
        <p className="text-sm text-slate-600">No further cycles are scheduled.</p>
      ) : (
        <DataTable caption="Next cycles" variant="inset" columns={[{ label: "Cycle" }, { label: "Local date, window" }, { label: "State" }]}>
          <tbody className="divide-y divide-slate-100">
            {schedule.cycles.map((cycle) => (
              <tr key={cycle.index}>
                <td className="px-3 py-2 tabular-nums">{cycle.index + 1}</td>
                <td className="px-3 py-2">
                  <time dateTime={cycle.local_date} className="whitespace-nowrap">
                    {dayFormat.format(new Date(`${cycle.local_date}T00:00:00Z`))}
                  </time>
                  {cycle.windows.map((w) => (
                    <div key={w.time_zone} className="text-xs text-slate-700">
                      {w.local_window ?? "any time"}
                      {w.crosses_midnight ? " (past midnight)" : ""} <span className="text-slate-500">{w.time_zone}</span>
                    </div>
                  ))}
                </td>
                <td className="px-3 py-2 text-xs">
                  {cycle.status}
                  {cycle.skip_reason ? ` (${cycle.skip_reason.replaceAll("_", " ")})` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </div>
  );
}
