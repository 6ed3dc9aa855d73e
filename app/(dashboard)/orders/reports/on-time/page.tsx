// The organisation's on-time report: locations delivered by their promise, month by month, as a
// chart and as a table of the same figures (what a screen reader reads), from
// GET /orders/reports/on-time through the server-side API client.
import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { dashboardFormatLocale } from "@/components/ui/format-locale";
import { OnTimeChart, type OnTimeMonth } from "@/components/orders/on-time-chart";
import { OnTimeTable } from "@/components/orders/on-time-table";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { requirePageAccess } from "@/lib/dashboard/access";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders.onTime");
  return { title: t("title") };
}

const RANGES = [3, 6, 12] as const;

/** "YYYY-MM" of the month `back` months before this one (UTC). */
function monthBefore(now: Date, back: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return d.toISOString().slice(0, 7);
}

export default async function OnTimeReportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { access } = await requirePageAccess("viewer", "/orders/reports/on-time");
  const params = await searchParams;
  const months = RANGES.find((r) => String(r) === params.months) ?? 6;
  const t = await getTranslations("orders.onTime");
  const locale = dashboardFormatLocale(await getLocale());
  const now = new Date();
  const from = monthBefore(now, months - 1);
  const to = monthBefore(now, 0);

  const { data, error } = await access.api.GET("/api/orders/v1/orders/reports/on-time", { params: { query: { from, to } } });
  const monthName = (month: string) =>
    new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${month}-01T00:00:00Z`));
  const rows: OnTimeMonth[] = (data?.months ?? []).map((m) => ({ ...m, label: monthName(m.month) }));
  const share = (m: OnTimeMonth) => (m.on_time_share === null ? t("noShare") : t("share", { share: m.on_time_share }));
  const delivered = rows.some((m) => m.locations_delivered > 0);

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description", { org: access.org.name })}
        actions={
          <Link href="/orders" className="text-sm font-medium text-emerald-800 underline">
            {t("backToOrders")}
          </Link>
        }
      />
      <nav aria-label={t("rangeLabel")} className="flex gap-1 self-start rounded-lg bg-slate-100 p-1">
        {RANGES.map((range) => (
          <Link
            key={range}
            href={range === 6 ? "/orders/reports/on-time" : `/orders/reports/on-time?months=${range}`}
            aria-current={range === months ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
              range === months ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
            }`}
          >
            {t("range", { count: range })}
          </Link>
        ))}
      </nav>
      {error || !data ? (
        <ErrorState title={t("loadError")}>{error?.detail ?? t("noAnswer")}</ErrorState>
      ) : !delivered ? (
        <EmptyState title={t("empty")} />
      ) : (
        <section className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4" data-testid="on-time-report">
          <OnTimeChart
            months={rows}
            label={t("chartLabel", {
              from: monthName(from),
              to: monthName(to),
              summary: rows.map((m) => t("chartMonth", { month: m.label, onTime: m.delivered_on_time, delivered: m.locations_delivered })).join("; "),
            })}
            shareText={share}
            axisTitle={t("axisLocations")}
            legend={{ onTime: t("legendOnTime"), late: t("legendLate") }}
          />
          <OnTimeTable months={rows} share={rows.map(share)} />
        </section>
      )}
    </>
  );
}
