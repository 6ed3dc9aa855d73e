// The on-time report's figures as a table: the chart's numbers for reading, copying and screen readers.
import { useTranslations } from "next-intl";
import { CellLabel, DataTable } from "@/components/ui/data-table";
import type { OnTimeMonth } from "./on-time-chart";

const CELL = "px-4 py-2";

export function OnTimeTable({ months, share }: { months: OnTimeMonth[]; share: string[] }) {
  const t = useTranslations("orders.onTime");
  return (
    <DataTable
      caption={t("caption")}
      variant="inset"
      stacked
      columns={[
        { label: t("columns.month") },
        { label: t("columns.delivered"), className: "text-end" },
        { label: t("columns.onTime"), className: "text-end" },
        { label: t("columns.late"), className: "text-end" },
        { label: t("columns.share"), className: "text-end" },
      ]}
    >
      <tbody className="divide-y divide-slate-100 text-sm">
        {months.map((m, i) => (
          <tr key={m.month} data-month={m.month}>
            <td className={`${CELL} font-medium text-slate-900`}>
              <time dateTime={m.month}>{m.label}</time>
            </td>
            <td className={`${CELL} text-end tabular-nums`}>
              <CellLabel>{t("columns.delivered")}</CellLabel>
              {m.locations_delivered}
            </td>
            <td className={`${CELL} text-end tabular-nums`}>
              <CellLabel>{t("columns.onTime")}</CellLabel>
              {m.delivered_on_time}
            </td>
            <td className={`${CELL} text-end tabular-nums`}>
              <CellLabel>{t("columns.late")}</CellLabel>
              {m.delivered_late}
            </td>
            <td className={`${CELL} text-end tabular-nums`} data-testid="on-time-share">
              <CellLabel>{t("columns.share")}</CellLabel>
              {share[i]}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
