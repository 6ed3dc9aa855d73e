import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { OrdersTable } from "./orders-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("orders.list");
  return { title: t("title") };
}

const TABS = [
  { key: "open", statuses: "pending_confirmation,payment_action_required,payment_failed,confirmed,in_progress,active,paused" },
  { key: "done", statuses: "fulfilled,partially_fulfilled,ended" },
  { key: "cancelled", statuses: "cancelled,expired" },
  { key: "all", statuses: "all" },
] as const;
type TabKey = (typeof TABS)[number]["key"];
const PER_PAGE = 20;

function listHref(params: { tab: TabKey; reference: string; page?: number }): string {
  const search = new URLSearchParams();
  if (params.tab !== "open") search.set("status", params.tab);
  if (params.reference) search.set("reference", params.reference);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const s = search.toString();
  return s ? `/orders?${s}` : "/orders";
}

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { access } = await requirePageAccess("viewer", "/orders");
  const params = await searchParams;
  const tab = TABS.find((t) => t.key === params.status) ?? TABS[0];
  const reference = typeof params.reference === "string" ? params.reference.trim().slice(0, 200) : "";
  const page = Math.max(1, Math.min(10_000, Number.parseInt(typeof params.page === "string" ? params.page : "1", 10) || 1));
  const canOrder = roleAtLeast(access.role, "editor");
  const t = await getTranslations("orders.list");
  const tOnTime = await getTranslations("orders.onTime");

  const { data, error } = await access.api.GET("/api/orders/v1/orders", {
    params: { query: { status: tab.statuses, ...(reference ? { client_reference: reference } : {}), page, per_page: PER_PAGE } },
  });

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description", { org: access.org.name })}
        actions={
          <>
            <Link href="/orders/reports/on-time" className={buttonClasses({ variant: "secondary" })}>
              {tOnTime("link")}
            </Link>
            {canOrder ? (
              <Link href="/orders/new" className={buttonClasses()}>
                {t("newOrder")}
              </Link>
            ) : null}
          </>
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label={t("tabsLabel")} className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {TABS.map((each) => (
            <Link
              key={each.key}
              href={listHref({ tab: each.key, reference })}
              aria-current={each.key === tab.key ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                each.key === tab.key ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
              }`}
            >
              {t(`tabs.${each.key}`)}
            </Link>
          ))}
        </nav>
        <form role="search" action="/orders" className="flex gap-2">
          {tab.key !== "open" ? <input type="hidden" name="status" value={tab.key} /> : null}
          <label htmlFor="order-reference" className="sr-only">
            {t("findLabel")}
          </label>
          <input
            id="order-reference"
            name="reference"
            type="search"
            defaultValue={reference}
            placeholder={t("findPlaceholder")}
            className={`${inputClasses} sm:w-72`}
          />
          <button type="submit" className={buttonClasses({ variant: "secondary" })}>
            {t("find")}
          </button>
        </form>
      </div>

      {error || !data ? (
        <ErrorState title={t("loadError")}>{error?.detail ?? t("noAnswer")}</ErrorState>
      ) : data.data.length === 0 ? (
        <EmptyState
          title={reference ? t("emptyReference", { tab: tab.key, reference }) : t("empty", { tab: tab.key })}
          action={
            reference ? (
              <Link href={listHref({ tab: tab.key, reference: "" })} className={buttonClasses({ variant: "secondary" })}>
                {t("clearSearch")}
              </Link>
            ) : canOrder ? (
              <Link href="/orders/new" className={buttonClasses()}>
                {t("orderPhotos")}
              </Link>
            ) : null
          }
        >
          {!reference && canOrder ? t("emptyHint") : null}
        </EmptyState>
      ) : (
        <>
          <OrdersTable orders={data.data} />
          <Pagination total={data.meta.total} page={page} tab={tab.key} reference={reference} />
        </>
      )}
    </>
  );
}

async function Pagination({ total, page, tab, reference }: { total: number; page: number; tab: TabKey; reference: string }) {
  const t = await getTranslations("orders.list");
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const from = (page - 1) * PER_PAGE + 1;
  const to = Math.min(total, page * PER_PAGE);
  return (
    <nav aria-label={t("pages")} className="flex items-center justify-between text-sm text-slate-600">
      <span>{t("range", { from, to, total })}</span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link href={listHref({ tab, reference, page: page - 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            {t("previous")}
          </Link>
        ) : null}
        {page < pages ? (
          <Link href={listHref({ tab, reference, page: page + 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            {t("next")}
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
