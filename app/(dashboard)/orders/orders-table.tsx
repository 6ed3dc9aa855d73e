"use client";
// The orders list's table: each order's name, status, progress, next cycle, total and creation
// date, in the reader's words and formats (money and dates in their locale, a cycle's window on
// their clock).
import Link from "next/link";
import { DeliveryStatusBadge } from "@/components/orders/delivery-status-badge";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { OrderTime } from "@/components/orders/order-time";
import { nextCycleSummary } from "@/components/orders/recurring-summary";
import { useScheduleDescription } from "@/components/orders/use-schedule-description";
import type { Order } from "@/components/orders/types";
import { useOrderWords } from "@/components/orders/use-order-words";
import { CellLabel, DataTable } from "@/components/ui/data-table";
import { ProgressBar } from "@/components/ui/progress-bar";

export function OrdersTable({ orders }: { orders: Order[] }) {
  const words = useOrderWords();
  const describe = useScheduleDescription();
  const { t, money } = words;
  return (
    <DataTable
      stacked
      caption={t("list.caption")}
      columns={[
        { label: t("list.order") },
        { label: t("list.status") },
        { label: t("page.locationsDelivered"), className: "w-56" },
        { label: t("list.nextCycle") },
        { label: t("page.total"), className: "text-end" },
        { label: t("list.created") },
      ]}
    >
      <tbody className="divide-y divide-slate-100">
        {orders.map((order) => {
          const name = order.client_reference ?? order.id;
          const next = nextCycleSummary(order, words);
          const done = order.missions.completed;
          const of = Math.max(order.missions.total, order.locations.length);
          const cyclesSoFar = Math.round(order.missions.total / Math.max(1, order.locations.length));
          // Open locations whose task was left untaken past its expected take time.
          const escalated = order.locations.filter((l) => l.escalated && (l.delivery_status === "at_risk" || l.delivery_status === "late")).length;
          return (
            <tr key={order.id} className="hover:bg-slate-50" data-testid="order-row" data-order-id={order.id}>
              <td className="max-w-md px-4 py-3">
                <Link
                  href={`/orders/${order.id}`}
                  className="font-medium text-slate-900 hover:text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600"
                >
                  {name}
                </Link>
                <div className="mt-0.5 text-xs text-slate-500">
                  {words.vocabulary(`category.${order.category}`)} · {t("list.locations", { count: order.locations.length })} ·{" "}
                  {describe(order.recurring, order.locations[0]?.coordinates) ?? t("list.once")}
                </div>
              </td>
              <td className="px-4 py-3">
                <CellLabel>{t("list.status")}</CellLabel>
                <div className="flex flex-wrap gap-1">
                  <OrderStatusBadge status={order.status} />
                  {order.delivery_status ? <DeliveryStatusBadge status={order.delivery_status} /> : null}
                </div>
                {escalated > 0 ? (
                  <div className="mt-1 text-xs text-amber-900" data-testid="order-escalated">
                    {t("promise.escalatedCount", { count: escalated })}
                  </div>
                ) : null}
              </td>
              <td className="px-4 py-3" data-wide>
                <CellLabel>{t("page.locationsDelivered")}</CellLabel>
                <div className="flex items-center gap-3">
                  <ProgressBar value={done} max={of} label={t("list.progressLabel", { name })} />
                  <span className="w-16 shrink-0 whitespace-nowrap text-end text-xs tabular-nums text-slate-600">{t("list.doneOf", { done, of })}</span>
                </div>
                {order.recurring ? (
                  // One mission per location and cycle: these are location visits summed over the cycles dispatched so far.
                  <div className="mt-0.5 text-xs text-slate-500" data-testid="order-progress-note">
                    {cyclesSoFar === 0 ? t("list.noCycleYet") : t("list.cyclesSoFar", { count: cyclesSoFar })}
                  </div>
                ) : null}
              </td>
              <td className="px-4 py-3 text-xs text-slate-700" data-testid="order-next-cycle">
                <CellLabel>{t("list.nextCycle")}</CellLabel>
                {next ? (
                  <>
                    <time dateTime={next.date} className="font-medium text-slate-900">
                      {next.day}
                    </time>
                    <div className="whitespace-nowrap text-slate-500">{t("list.cycleWindow", { cycle: next.number, window: next.window })}</div>
                  </>
                ) : (
                  <span className="text-slate-500">{order.recurring ? t("list.noneScheduled") : t("list.oneOff")}</span>
                )}
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-end tabular-nums">
                <CellLabel>{t("page.total")}</CellLabel>
                {money(order.quote.total_cents, order.quote.currency)}
                {order.recurring ? <span className="text-xs text-slate-500"> {t("list.perCycle")}</span> : null}
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                <CellLabel>{t("list.created")}</CellLabel>
                <OrderTime iso={order.created_at} dateOnly />
              </td>
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}
