"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { AddWebhookForm, type CreatedWebhook } from "@/components/webhooks/add-webhook-form";
import { webhookListQuery } from "@/components/webhooks/queries";
import type { DeliveryPage, Webhook } from "@/components/webhooks/types";
import { WebhookEndpoint } from "@/components/webhooks/webhook-endpoint";

const URL_INPUT_ID = "webhook-url";

export function WebhooksPageClient({
  initialWebhooks,
  initialDeliveries,
  graceSeconds,
}: {
  initialWebhooks: Webhook[];
  initialDeliveries: Record<string, DeliveryPage | null>;
  graceSeconds: number;
}) {
  const t = useTranslations("webhooks");
  const list = useQuery({ ...webhookListQuery(), initialData: { data: initialWebhooks } });
  // The new endpoint's secret, for the one-time reveal; gone when the reveal is dismissed.
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const webhooks = list.data.data;

  const onCreated = async (webhook: CreatedWebhook) => {
    setCreated(webhook);
    await list.refetch();
  };
  const onDeleted = (url: string) => {
    setAnnouncement(t("list.deleted", { url }));
    if (created?.url === url) setCreated(null);
    // The deleted card held the focus; give it a sensible place to land.
    heading.current?.focus();
  };

  return (
    <>
      {created ? (
        <SecretReveal label={t("created.label")} title={t("created.title")} secret={created.secret} onDone={() => setCreated(null)}>
          <p>
            {t.rich("created.body", {
              url: created.url,
              mono: (chunks) => <span className="break-all font-mono">{chunks}</span>,
              code: (chunks) => <code className="font-mono">{chunks}</code>,
              link: (chunks) => (
                <Link href="/docs/webhooks" className="font-medium underline underline-offset-2">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        </SecretReveal>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="endpoints-heading" className="flex min-w-0 flex-col gap-3">
          <div className="flex items-baseline justify-between gap-2">
            <h2 id="endpoints-heading" ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
              {t("list.heading")}
            </h2>
            {list.isFetching ? <span className="text-xs text-slate-500">{t("updating")}</span> : null}
          </div>
          <p role="status" className="sr-only">
            {announcement}
          </p>
          {list.error ? <ErrorState title={t("list.refreshFailed")}>{list.error.message}</ErrorState> : null}
          {webhooks.length === 0 ? (
            <EmptyState
              title={t("list.emptyTitle")}
              action={
                <div className="flex flex-wrap justify-center gap-2">
                  <button type="button" className={buttonClasses()} onClick={() => document.getElementById(URL_INPUT_ID)?.focus()}>
                    {t("list.addFirst")}
                  </button>
                  <Link href="/docs/webhooks" className={buttonClasses({ variant: "secondary" })}>
                    {t("list.howItWorks")}
                  </Link>
                </div>
              }
            >
              {t("list.emptyBody")}
            </EmptyState>
          ) : (
            <ul aria-label={t("list.label")} className="flex flex-col gap-4">
              {webhooks.map((webhook) => (
                <WebhookEndpoint
                  key={webhook.id}
                  webhook={webhook}
                  initialDeliveries={initialDeliveries[webhook.id] ?? null}
                  graceSeconds={graceSeconds}
                  onDeleted={onDeleted}
                />
              ))}
            </ul>
          )}
        </section>
        <div className="lg:sticky lg:top-6">
          <AddWebhookForm urlInputId={URL_INPUT_ID} onCreated={onCreated} />
        </div>
      </div>
    </>
  );
}
