import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { IntentLink } from "@/components/ui/intent-link";
import { inputClasses } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { formatAreaIn } from "@/lib/geo/format-measure";
import { dashboardFormatLocale } from "@/components/ui/format-locale";
import { CellLabel, DataTable } from "@/components/ui/data-table";
import { missionProgress, progressWords } from "@/components/missions/mission-progress";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("missions.list");
  return { title: t("title") };
}

const TABS = ["active", "completed", "cancelled", "all"] as const;
type TabStatus = (typeof TABS)[number];
const PER_PAGE = 20;

function listHref(params: { status: TabStatus; q: string; page?: number }): string {
  const search = new URLSearchParams();
  if (params.status !== "active") search.set("status", params.status);
  if (params.q) search.set("q", params.q);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const s = search.toString();
  return s ? `/missions?${s}` : "/missions";
}

export default async function MissionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { access } = await requirePageAccess("viewer", "/missions");
  const params = await searchParams;
  const status: TabStatus = TABS.find((tab) => tab === params.status) ?? "active";
  const q = typeof params.q === "string" ? params.q.trim().slice(0, 200) : "";
  const page = Math.max(1, Math.min(10_000, Number.parseInt(typeof params.page === "string" ? params.page : "1", 10) || 1));

  const { data, error } = await access.api.GET("/api/v1/missions", {
    params: { query: { status, ...(q ? { q } : {}), page, per_page: PER_PAGE } },
  });
  const canCreate = roleAtLeast(access.role, "editor");
  const [t, tProgress, locale] = await Promise.all([getTranslations("missions.list"), getTranslations("missions.progress"), getLocale()]);
  const tShell = await getTranslations("dashboard.shell");
  const formatLocale = dashboardFormatLocale(locale);
  const dateFormat = new Intl.DateTimeFormat(formatLocale, { day: "numeric", month: "short", year: "numeric" });
  const words = progressWords(tProgress);

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("description", { org: access.org.name, name: (chunks) => <bdi>{chunks}</bdi> })}
        actions={
          canCreate ? (
            <Link href="/missions/new" className={buttonClasses()}>
              {t("new")}
            </Link>
          ) : null
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label={t("tabsLabel")} className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {TABS.map((tab) => (
            <Link
              key={tab}
              href={listHref({ status: tab, q })}
              aria-current={tab === status ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                tab === status ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
              }`}
            >
              {t(`tabs.${tab}`)}
            </Link>
          ))}
        </nav>
        <form role="search" action="/missions" className="flex gap-2">
          {status !== "active" ? <input type="hidden" name="status" value={status} /> : null}
          <label htmlFor="mission-search" className="sr-only">
            {t("searchLabel")}
          </label>
          <input id="mission-search" name="q" type="search" defaultValue={q} placeholder={t("searchPlaceholder")} className={`${inputClasses} sm:w-72`} />
          <button type="submit" className={buttonClasses({ variant: "secondary" })}>
            {t("search")}
          </button>
        </form>
      </div>

      {error || !data ? (
        <ErrorState title={t("loadFailed")}>{error?.detail ?? t("noAnswer")}</ErrorState>
      ) : data.data.length === 0 ? (
        <EmptyState
          title={q ? t("noneMatch", { status, q }) : t("noneYet", { status })}
          action={
            canCreate && !q ? (
              <Link href="/missions/new" className={buttonClasses()}>
                {t("drawFirst")}
              </Link>
            ) : q ? (
              <Link href={listHref({ status, q: "" })} className={buttonClasses({ variant: "secondary" })}>
                {t("clearSearch")}
              </Link>
            ) : null
          }
        >
          {canCreate && !q ? t("emptyHint") : null}
        </EmptyState>
      ) : (
        <>
          <DataTable
            stacked
            caption={t("caption")}
            columns={[
              { label: t("columns.mission") },
              { label: t("columns.status") },
              { label: t("columns.progress"), className: "w-56" },
              { label: t("columns.submissions"), className: "text-end" },
              { label: t("columns.created") },
            ]}
          >
            <tbody className="divide-y divide-slate-100">
              {data.data.map((m) => {
                const progress = missionProgress(m, words);
                return (
                  <tr key={m.id} className="hover:bg-slate-50">
                    <td className="max-w-md px-4 py-3">
                      <IntentLink
                        href={`/missions/${m.id}`}
                        className="font-medium text-slate-900 hover:text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600"
                      >
                        {m.title}
                      </IntentLink>
                      <div className="mt-0.5 text-xs text-slate-500">
                        {formatAreaIn(m.area_m2, formatLocale, locale)}
                        {m.order_id ? (
                          <>
                            {" · "}
                            <Link
                              href={`/orders/${m.order_id}`}
                              className="underline hover:text-emerald-800 focus-visible:outline-2 focus-visible:outline-emerald-600"
                            >
                              {m.order_reference ? t("fromOrderNamed", { reference: m.order_reference }) : t("fromOrder")}
                            </Link>
                          </>
                        ) : null}
                      </div>
                    </td>
                    <td className="px-4 py-3">
                      <CellLabel>{t("columns.status")}</CellLabel>
                      <StatusBadge status={m.status} />
                    </td>
                    <td className="px-4 py-3" data-wide>
                      <CellLabel>{t("columns.progress")}</CellLabel>
                      <div className="flex items-center gap-3">
                        <ProgressBar value={progress.counted} max={progress.required} label={t("progressLabel", { title: m.title })} />
                        <span className="min-w-16 shrink-0 whitespace-nowrap text-end text-xs tabular-nums text-slate-600">{progress.short}</span>
                      </div>
                    </td>
                    <td className="px-4 py-3 text-end tabular-nums">
                      <CellLabel>{t("columns.submissions")}</CellLabel>
                      {new Intl.NumberFormat(formatLocale).format(m.submissions)}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      <CellLabel>{t("columns.created")}</CellLabel>
                      <time dateTime={m.created_at}>{dateFormat.format(new Date(m.created_at))}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </DataTable>
          <Pagination total={data.meta.total} page={page} status={status} q={q} />
        </>
      )}
      {!canCreate ? (
        <p className="text-xs text-slate-500">
          <Badge>{tShell("roles.viewer")}</Badge> {t("viewerNote")}
        </p>
      ) : null}
    </>
  );
}

async function Pagination({ total, page, status, q }: { total: number; page: number; status: TabStatus; q: string }) {
  const t = await getTranslations("missions.list");
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const from = (page - 1) * PER_PAGE + 1;
  const to = Math.min(total, page * PER_PAGE);
  return (
    <nav aria-label={t("pagesLabel")} className="flex items-center justify-between text-sm text-slate-600">
      <span>{t("range", { from, to, total })}</span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link href={listHref({ status, q, page: page - 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            {t("previous")}
          </Link>
        ) : null}
        {page < pages ? (
          <Link href={listHref({ status, q, page: page + 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            {t("next")}
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
