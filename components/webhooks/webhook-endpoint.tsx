"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";
import { deleteWebhook, rotateWebhookSecret, sendTestEvent, setWebhookEnabled } from "@/lib/dashboard/webhook-actions";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DeliveriesPanel } from "./deliveries-panel";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatDuration } from "@/components/ui/format-time";
import { LocalDateTime, RelativeTime } from "@/components/ui/local-time";
import { deliveriesQuery, webhookKeys } from "./queries";
import type { DeliveryPage, Webhook } from "./types";
import { deliveryStatus, describeEvents, endpointState } from "./webhook-display";

type Pending = "test" | "toggle" | "rotate" | "delete";
type Message = { tone: "error" | "ok"; text: string };

/** One endpoint: its state and last delivery, the actions on it, and its delivery log. */
export function WebhookEndpoint({
  webhook,
  initialDeliveries,
  graceSeconds,
  onDeleted,
}: {
  webhook: Webhook;
  initialDeliveries: DeliveryPage | null;
  graceSeconds: number;
  onDeleted: (url: string) => void;
}) {
  const t = useTranslations("webhooks");
  const locale = useFormatLocale();
  const queryClient = useQueryClient();
  const headingId = useId();
  const deliveriesId = useId();
  const [pending, setPending] = useState<Pending | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [confirm, setConfirm] = useState<"rotate" | "delete" | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  // The rotated secret lives here until "Done" — never in a query cache.
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | null } | null>(null);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [page, setPage] = useState(1);

  // Page 1 of the log also gives the header its "last delivery"; the panel shares the query.
  const firstPage = useQuery({ ...deliveriesQuery(webhook.id, 1), ...(initialDeliveries ? { initialData: initialDeliveries } : {}) });
  const last = firstPage.data?.data[0];
  const state = endpointState(webhook);

  /** Runs one action with its button pending; the data it changed is refetched before the button comes back. */
  async function run(kind: Pending, action: () => Promise<Message | null>, onError: (text: string) => void = (text) => setMessage({ tone: "error", text })) {
    setPending(kind);
    setMessage(null);
    try {
      const outcome = await action();
      if (outcome?.tone === "error") onError(outcome.text);
      else setMessage(outcome);
    } catch {
      onError(t("unreachable"));
    } finally {
      setPending(null);
    }
  }

  const sendTest = () =>
    run("test", async () => {
      const result = await sendTestEvent({ id: webhook.id });
      if (!result.ok) return { tone: "error", text: result.error };
      // Refetched first, so the log opens with the new delivery already in it.
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
      setShowDeliveries(true);
      setPage(1);
      return { tone: "ok", text: t("endpoint.testQueued") };
    });

  const toggle = () =>
    run("toggle", async () => {
      const result = await setWebhookEnabled({ id: webhook.id, enabled: !webhook.enabled });
      if (!result.ok) return { tone: "error", text: result.error };
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      return { tone: "ok", text: result.data.enabled ? t("endpoint.enabled") : t("endpoint.disabled") };
    });

  const rotate = () =>
    run(
      "rotate",
      async () => {
        const result = await rotateWebhookSecret({ id: webhook.id });
        if (!result.ok) return { tone: "error", text: result.error };
        setRotated({ secret: result.data.secret, previousSecretExpiresAt: result.data.previousSecretExpiresAt });
        setConfirm(null);
        await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
        return null;
      },
      setConfirmError,
    );

  const remove = () =>
    run(
      "delete",
      async () => {
        const result = await deleteWebhook({ id: webhook.id });
        if (!result.ok) return { tone: "error", text: result.error };
        setConfirm(null);
        queryClient.removeQueries({ queryKey: webhookKeys.deliveries(webhook.id) });
        await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
        onDeleted(webhook.url);
        return null;
      },
      setConfirmError,
    );

  const grace = formatDuration(graceSeconds, locale);
  const code = (chunks: ReactNode) => <code className="font-mono">{chunks}</code>;
  const mono = (chunks: ReactNode) => <span className="break-all font-mono text-slate-900">{chunks}</span>;
  const stateDetail =
    state.kind === "disabled"
      ? (state.reason ?? t("endpoint.disabledDetail"))
      : state.kind === "failing"
        ? t("endpoint.failingDetail", { count: state.failures })
        : null;
  const lastStatus = last ? deliveryStatus(last) : null;

  const openConfirm = (which: "rotate" | "delete") => {
    setConfirmError(null);
    setConfirm(which);
  };

  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <section aria-labelledby={headingId} className="flex flex-col gap-4 p-4">
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="min-w-0 break-all font-mono text-sm font-semibold text-slate-900">
              {webhook.url}
            </h3>
            <span data-testid="endpoint-state" data-state={state.kind}>
              <Badge tone={state.tone}>{t(`endpoint.state.${state.kind}`)}</Badge>
            </span>
          </div>
          {webhook.description ? <p className="text-sm text-slate-600">{webhook.description}</p> : null}
          {/* Not a list: the endpoint itself is a list item, and its events are one fact about it. */}
          <p className="flex flex-wrap items-center gap-1.5">
            <span className="sr-only">{t("endpoint.events")}</span>
            {(() => {
              const events = describeEvents(webhook.events);
              return events === "all" ? (
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{t("endpoint.allEvents")}</span>
              ) : (
                events.map((e) => (
                  <span key={e} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                    {e}
                  </span>
                ))
              );
            })()}
          </p>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-600">
            <div className="flex items-center gap-1.5" data-testid="last-delivery">
              <dt>{t("endpoint.lastDelivery")}</dt>
              <dd className="flex items-center gap-1.5">
                {last && lastStatus ? (
                  <>
                    <Badge tone={lastStatus.tone}>{t(`deliveries.statusLabel.${lastStatus.kind}`)}</Badge>
                    <span className="font-mono">{last.event}</span>
                    <RelativeTime iso={last.created_at} />
                  </>
                ) : firstPage.isPending ? (
                  "…"
                ) : (
                  t("endpoint.noneYet")
                )}
              </dd>
            </div>
            <div className="flex gap-1.5">
              <dt>{t("endpoint.added")}</dt>
              <dd>
                <LocalDateTime iso={webhook.created_at} dateOnly />
              </dd>
            </div>
          </dl>
          {stateDetail ? <p className={`text-xs ${state.kind === "failing" ? "text-red-700" : "text-slate-600"}`}>{stateDetail}</p> : null}
          {webhook.previous_secret_expires_at && !rotated ? (
            <p className="text-xs text-amber-900">
              {t.rich("endpoint.recentlyRotated", { time: () => <LocalDateTime iso={webhook.previous_secret_expires_at ?? ""} /> })}
            </p>
          ) : null}
        </div>

        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" disabled={pending !== null} aria-busy={pending === "test" || undefined} onClick={() => void sendTest()}>
            {pending === "test" ? t("endpoint.sending") : t("endpoint.sendTest")}
          </Button>
          <Button variant="secondary" size="sm" disabled={pending !== null} aria-busy={pending === "toggle" || undefined} onClick={() => void toggle()}>
            {pending === "toggle"
              ? webhook.enabled
                ? t("endpoint.disabling")
                : t("endpoint.enabling")
              : webhook.enabled
                ? t("endpoint.disable")
                : t("endpoint.enable")}
          </Button>
          <Button variant="secondary" size="sm" disabled={pending !== null} onClick={() => openConfirm("rotate")}>
            {t("endpoint.rotate")}
          </Button>
          <Button variant="danger" size="sm" disabled={pending !== null} onClick={() => openConfirm("delete")}>
            {t("endpoint.delete")}
          </Button>
        </div>

        {message ? (
          <p role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-800"}`}>
            {message.text}
          </p>
        ) : null}

        {rotated ? (
          <SecretReveal label={t("endpoint.rotatedLabel")} title={t("endpoint.rotatedTitle")} secret={rotated.secret} onDone={() => setRotated(null)}>
            <p>
              {rotated.previousSecretExpiresAt
                ? t.rich("endpoint.rotatedUntil", { code, time: () => <LocalDateTime iso={rotated.previousSecretExpiresAt ?? ""} /> })
                : t.rich("endpoint.rotatedFor", { code, duration: grace })}
            </p>
          </SecretReveal>
        ) : null}

        <div className="flex flex-col gap-3 border-t border-slate-100 pt-3">
          <div>
            <Button variant="ghost" size="sm" aria-expanded={showDeliveries} aria-controls={deliveriesId} onClick={() => setShowDeliveries((v) => !v)}>
              <span aria-hidden className={`inline-block text-slate-400 transition-transform ${showDeliveries ? "rotate-90" : "rtl:rotate-180"}`}>
                ▸
              </span>
              {showDeliveries ? t("endpoint.hideDeliveries") : t("endpoint.showDeliveries")}
              {firstPage.data ? <span className="text-xs font-normal text-slate-600">({firstPage.data.meta.total})</span> : null}
            </Button>
          </div>
          <div id={deliveriesId} hidden={!showDeliveries}>
            {showDeliveries ? <DeliveriesPanel webhookId={webhook.id} endpointEnabled={webhook.enabled} page={page} onPageChange={setPage} /> : null}
          </div>
        </div>
      </section>

      <ConfirmDialog
        open={confirm === "rotate"}
        title={t("endpoint.rotateTitle")}
        confirmLabel={t("endpoint.rotateConfirm")}
        pendingLabel={t("endpoint.rotating")}
        tone="primary"
        pending={pending === "rotate"}
        error={confirmError}
        onConfirm={() => void rotate()}
        onCancel={() => setConfirm(null)}
      >
        <p>{t.rich("endpoint.rotateBody", { url: webhook.url, mono })}</p>
        <p>{t.rich("endpoint.rotateGrace", { duration: grace, code })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "delete"}
        title={t("endpoint.deleteTitle")}
        confirmLabel={t("endpoint.deleteConfirm")}
        pendingLabel={t("endpoint.deleting")}
        pending={pending === "delete"}
        error={confirmError}
        onConfirm={() => void remove()}
        onCancel={() => setConfirm(null)}
      >
        <p>{t.rich("endpoint.deleteBody", { url: webhook.url, mono })}</p>
      </ConfirmDialog>
    </li>
  );
}
