"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Fragment, useState } from "react";
import { redeliverDelivery } from "@/lib/dashboard/webhook-actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingRows } from "@/components/ui/states";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatMs } from "@/components/ui/format-time";
import { LocalDateTime, RelativeTime } from "@/components/ui/local-time";
import { deliveriesQuery, webhookKeys } from "./queries";
import type { Delivery } from "./types";
import { DELIVERIES_PER_PAGE, deliveryStatus, lastOutcome } from "./webhook-display";
import { DataTable } from "@/components/ui/data-table";

/**
 * An endpoint's delivery log, newest first, refreshed while anything is in flight: each delivery
 * expands to its attempts and a Redeliver button.
 */
export function DeliveriesPanel({
  webhookId,
  endpointEnabled,
  page,
  onPageChange,
}: {
  webhookId: string;
  endpointEnabled: boolean;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const t = useTranslations("webhooks.deliveries");
  const query = useQuery(deliveriesQuery(webhookId, page));
  const [expanded, setExpanded] = useState<string | null>(null);

  if (query.isPending) return <LoadingRows rows={3} label={t("loading")} />;
  if (query.error) return <ErrorState title={t("loadFailed")}>{query.error.message}</ErrorState>;
  const { data, meta } = query.data;
  if (data.length === 0 && page === 1) {
    return <EmptyState title={t("emptyTitle")}>{t("emptyBody")}</EmptyState>;
  }
  const pages = Math.max(1, Math.ceil(meta.total / DELIVERIES_PER_PAGE));
  const from = (page - 1) * DELIVERIES_PER_PAGE + 1;

  return (
    <div className="flex flex-col gap-2">
      <DataTable
        caption={t("caption")}
        variant="inset"
        columns={[
          { label: t("event") },
          { label: t("status") },
          { label: t("attempts"), className: "text-end" },
          { label: t("lastResponse") },
          { label: t("created") },
          { label: t("nextRetry") },
        ]}
      >
        <tbody className="divide-y divide-slate-100 bg-white">
          {data.map((delivery) => (
            <DeliveryRow
              key={delivery.id}
              delivery={delivery}
              webhookId={webhookId}
              endpointEnabled={endpointEnabled}
              open={expanded === delivery.id}
              onToggle={() => setExpanded(expanded === delivery.id ? null : delivery.id)}
            />
          ))}
        </tbody>
      </DataTable>
      <div className="flex items-center justify-between gap-2 text-xs text-slate-600">
        <span aria-live="polite">
          {meta.total === 0 ? t("noneOnPage") : t("range", { from, to: from + data.length - 1, total: meta.total })}
          {query.isFetching ? <span className="ms-2 text-slate-500">{t("updating")}</span> : null}
        </span>
        {pages > 1 ? (
          <nav aria-label={t("pages")} className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
              {t("newer")}
            </Button>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPageChange(page + 1)}>
              {t("older")}
            </Button>
          </nav>
        ) : null}
      </div>
    </div>
  );
}

function DeliveryRow({
  delivery,
  webhookId,
  endpointEnabled,
  open,
  onToggle,
}: {
  delivery: Delivery;
  webhookId: string;
  endpointEnabled: boolean;
  open: boolean;
  onToggle: () => void;
}) {
  const t = useTranslations("webhooks.deliveries");
  const status = deliveryStatus(delivery);
  const last = lastOutcome(delivery);
  const outcome = last === null ? null : last.kind === "response" ? last.text : t("noResponse");
  const detailsId = `delivery-${delivery.id}-attempts`;
  return (
    <Fragment>
      <tr data-testid="delivery-row" data-delivery-id={delivery.id} data-status={delivery.status} className={open ? "bg-slate-50" : "hover:bg-slate-50"}>
        <td className="px-3 py-2">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={onToggle}
            className="inline-flex items-center gap-1.5 rounded font-mono text-xs text-slate-900 hover:text-emerald-800 focus-visible:outline-2 focus-visible:outline-emerald-600"
          >
            <span aria-hidden className={`inline-block text-slate-400 transition-transform ${open ? "rotate-90" : "rtl:rotate-180"}`}>
              ▸
            </span>
            {delivery.event}
          </button>
        </td>
        <td className="px-3 py-2">
          <Badge tone={status.tone}>{t(`statusLabel.${status.kind}`)}</Badge>
        </td>
        <td className="px-3 py-2 text-end tabular-nums">{delivery.attempt_count}</td>
        <td
          className={`max-w-56 truncate px-3 py-2 text-xs ${delivery.status === "succeeded" ? "text-slate-600" : outcome ? "text-red-700" : "text-slate-500"}`}
          title={outcome ?? undefined}
        >
          {outcome ?? "—"}
        </td>
        <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">
          <RelativeTime iso={delivery.created_at} />
        </td>
        <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">
          {delivery.next_attempt_at && delivery.attempt_count > 0 ? <RelativeTime iso={delivery.next_attempt_at} /> : "—"}
        </td>
      </tr>
      {open ? (
        <tr>
          <td id={detailsId} colSpan={6} className="bg-slate-50 px-3 pb-3 pt-1">
            <DeliveryDetails delivery={delivery} webhookId={webhookId} endpointEnabled={endpointEnabled} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

function DeliveryDetails({ delivery, webhookId, endpointEnabled }: { delivery: Delivery; webhookId: string; endpointEnabled: boolean }) {
  const t = useTranslations("webhooks.deliveries");
  const locale = useFormatLocale();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ tone: "error" | "ok"; text: string } | null>(null);
  const settled = delivery.status === "succeeded" || delivery.status === "failed";
  const blocked = !endpointEnabled ? t("enableToRedeliver") : !settled ? t("settleToRedeliver") : null;

  async function redeliver() {
    setPending(true);
    setMessage(null);
    try {
      const result = await redeliverDelivery({ id: webhookId, deliveryId: delivery.id });
      if (!result.ok) {
        setMessage({ tone: "error", text: result.error });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) });
      setMessage({ tone: "ok", text: t("redelivered") });
    } catch {
      setMessage({ tone: "error", text: t("unreachable") });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <span>
          {t.rich("ids", { eventId: delivery.event_id, deliveryId: delivery.id, code: (chunks) => <code className="font-mono text-slate-800">{chunks}</code> })}
        </span>
        <div className="flex items-center gap-2">
          {blocked ? <span className="text-slate-500">{blocked}</span> : null}
          <Button variant="secondary" size="sm" disabled={pending || blocked !== null} aria-busy={pending || undefined} onClick={() => void redeliver()}>
            {pending ? t("queuing") : t("redeliver")}
          </Button>
        </div>
      </div>
      {message ? (
        <p role={message.tone === "error" ? "alert" : "status"} className={`text-xs ${message.tone === "error" ? "text-red-700" : "text-emerald-800"}`}>
          {message.text}
        </p>
      ) : null}
      {delivery.attempts.length === 0 ? (
        <p className="text-xs text-slate-600">{delivery.status === "failed" ? t("notAttemptedFailed") : t("notAttemptedYet")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full text-xs">
            <caption className="sr-only">{t("attemptsCaption")}</caption>
            <thead className="whitespace-nowrap text-start text-slate-500">
              <tr>
                <th scope="col" className="py-1 pe-3 font-medium">
                  #
                </th>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t("time")}
                </th>
                <th scope="col" className="py-1 pe-3 font-medium">
                  {t("httpStatus")}
                </th>
                <th scope="col" className="py-1 pe-3 text-end font-medium">
                  {t("duration")}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t("errorOrResponse")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {delivery.attempts.map((a) => {
                const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
                return (
                  <tr key={a.id} data-testid="delivery-attempt">
                    <td className="py-1.5 pe-3 tabular-nums text-slate-600">{a.attempt}</td>
                    <td className="whitespace-nowrap py-1.5 pe-3 text-slate-700">
                      <LocalDateTime iso={a.started_at} />
                    </td>
                    <td className="py-1.5 pe-3">
                      {a.status_code !== null ? (
                        <Badge tone={ok ? "success" : "danger"}>{a.status_code}</Badge>
                      ) : (
                        <span className="text-slate-500">{t("none")}</span>
                      )}
                    </td>
                    <td className="whitespace-nowrap py-1.5 pe-3 text-end tabular-nums text-slate-700">
                      {a.duration_ms !== null ? formatMs(a.duration_ms, locale) : "—"}
                    </td>
                    <td className="py-1.5">
                      {a.error ? <span className="text-red-700">{a.error}</span> : null}
                      {a.response_snippet ? (
                        <code className="block max-w-xl truncate font-mono text-slate-600" title={a.response_snippet}>
                          {a.response_snippet}
                        </code>
                      ) : null}
                      {!a.error && !a.response_snippet ? <span className="text-slate-500">—</span> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
