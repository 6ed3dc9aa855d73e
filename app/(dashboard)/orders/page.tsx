import type { Metadata } from "next";
import Link from "next/link";
import { formatMoney } from "@/components/orders/order-progress";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { nextCycleSummary } from "@/components/orders/recurring-summary";
import { CATEGORY_LABELS } from "@/lib/orders/vocabulary";
import { buttonClasses } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { inputClasses } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";

export const metadata: Metadata = { title: "Orders" };

const TABS = [
  { key: "open", label: "Open", statuses: "pending_confirmation,payment_action_required,payment_failed,confirmed,in_progress,active,paused" },
  { key: "done", label: "Done", statuses: "fulfilled,partially_fulfilled,ended" },
  { key: "cancelled", label: "Cancelled", statuses: "cancelled,expired" },
  { key: "all", label: "All", statuses: "all" },
] as const;
type TabKey = (typeof TABS)[number]["key"];
const PER_PAGE = 20;

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

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

  const { data, error } = await access.api.GET("/api/orders/v1/orders", {
    params: { query: { status: tab.statuses, ...(reference ? { client_reference: reference } : {}), page, per_page: PER_PAGE } },
  });

  return (
    <>
      <PageHeader
        title="Orders"
        description={`Photos ${access.org.name} ordered: where, what, when — and what the field delivered.`}
        actions={
          canOrder ? (
            <Link href="/orders/new" className={buttonClasses()}>
              New order
            </Link>
          ) : null
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="Order status" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {TABS.map((t) => (
            <Link
              key={t.key}
              href={listHref({ tab: t.key, reference })}
              aria-current={t.key === tab.key ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-emerald-600 ${
                t.key === tab.key ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
              }`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <form role="search" action="/orders" className="flex gap-2">
          {tab.key !== "open" ? <input type="hidden" name="status" value={tab.key} /> : null}
          <label htmlFor="order-reference" className="sr-only">
            Find an order by your reference
          </label>
          <input id="order-reference" name="reference" type="search" defaultValue={reference} placeholder="Your reference (exact)" className={`${inputClasses} sm:w-72`} />
          <button type="submit" className={buttonClasses({ variant: "secondary" })}>
            Find
          </button>
        </form>
      </div>

      {error || !data ? (
        <ErrorState title="The orders could not be loaded">{error?.detail ?? "The service did not answer. Reload to try again."}</ErrorState>
      ) : data.data.length === 0 ? (
        <EmptyState
          title={reference ? `No ${tab.key === "all" ? "" : `${tab.label.toLowerCase()} `}order has the reference “${reference}”` : `No ${tab.key === "all" ? "" : `${tab.label.toLowerCase()} `}orders`}
          action={
            reference ? (
              <Link href={listHref({ tab: tab.key, reference: "" })} className={buttonClasses({ variant: "secondary" })}>
                Clear search
              </Link>
            ) : canOrder ? (
              <Link href="/orders/new" className={buttonClasses()}>
                Order photos
              </Link>
            ) : null
          }
        >
          {!reference && canOrder ? "An order asks for photos of up to 500 places — once, or every day, week or month — verified before they are delivered." : null}
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Orders, newest first"
            columns={[{ label: "Order" }, { label: "Status" }, { label: "Locations delivered", className: "w-56" }, { label: "Next cycle" }, { label: "Total", className: "text-end" }, { label: "Created" }]}
          >
            <tbody className="divide-y divide-slate-100">
              {data.data.map((order) => {
                const name = order.client_reference ?? order.id;
                const next = nextCycleSummary(order);
                const done = order.missions.completed;
                const of = Math.max(order.missions.total, order.locations.length);
                const cyclesSoFar = Math.round(order.missions.total / Math.max(1, order.locations.length));
                return (
                  <tr key={order.id} className="hover:bg-slate-50" data-testid="order-row" data-order-id={order.id}>
                    <td className="max-w-md px-4 py-3">
                      <Link href={`/orders/${order.id}`} className="font-medium text-slate-900 hover:text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600">
                        {name}
                      </Link>
                      <div className="mt-0.5 text-xs text-slate-500">
                        {CATEGORY_LABELS[order.category]} · {order.locations.length} location{order.locations.length === 1 ? "" : "s"} · {order.quote.schedule ?? "once"}
                      </div>
                    </td>
                    <td className="px-4 py-3">
                      <OrderStatusBadge status={order.status} />
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex items-center gap-3">
                        <ProgressBar value={done} max={of} label={`${name}: locations delivered`} />
                        <span className="w-16 shrink-0 whitespace-nowrap text-end text-xs tabular-nums text-slate-600">
                          {done}/{of}
                        </span>
                      </div>
                      {order.recurring ? (
                        // One mission per location and cycle: these are location visits summed over the cycles dispatched so far.
                        <div className="mt-0.5 text-xs text-slate-500" data-testid="order-progress-note">
                          {cyclesSoFar === 0 ? "no cycle dispatched yet" : `over ${cyclesSoFar} cycle${cyclesSoFar === 1 ? "" : "s"} so far`}
                        </div>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-xs text-slate-700" data-testid="order-next-cycle">
                      {next ? (
                        <>
                          <time dateTime={next.date} className="font-medium text-slate-900">
                            {next.day}
                          </time>
                          <div className="whitespace-nowrap text-slate-500">
                            cycle {next.number}, {next.window}
                          </div>
                        </>
                      ) : (
                        <span className="text-slate-500">{order.recurring ? "none scheduled" : "one-off"}</span>
                      )}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-end tabular-nums">
                      {formatMoney(order.quote.total_cents, order.quote.currency)}
                      {order.recurring ? <span className="text-xs text-slate-500"> /cycle</span> : null}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                      <time dateTime={order.created_at}>{dateFormat.format(new Date(order.created_at))}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </DataTable>
          <Pagination total={data.meta.total} page={page} tab={tab.key} reference={reference} />
        </>
      )}
    </>
  );
}

function Pagination({ total, page, tab, reference }: { total: number; page: number; tab: TabKey; reference: string }) {
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const from = (page - 1) * PER_PAGE + 1;
  const to = Math.min(total, page * PER_PAGE);
  return (
    <nav aria-label="Pages" className="flex items-center justify-between text-sm text-slate-600">
      <span>
        {from}–{to} of {total}
      </span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link href={listHref({ tab, reference, page: page - 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link href={listHref({ tab, reference, page: page + 1 })} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
