"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
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
    setAnnouncement(`Deleted ${url}.`);
    if (created?.url === url) setCreated(null);
    // The deleted card held the focus; give it a sensible place to land.
    heading.current?.focus();
  };

  return (
    <>
      {created ? (
        <SecretReveal label="New signing secret" title="Endpoint added — here is its signing secret" secret={created.secret} onDone={() => setCreated(null)}>
          <p>
            Every request to <span className="break-all font-mono">{created.url}</span> carries an <code className="font-mono">X-SVC-Signature</code> header: the hex HMAC-SHA256 of
            the raw body keyed with this secret. Check it before trusting a request —{" "}
            <Link href="/docs/webhooks" className="font-medium underline underline-offset-2">
              how to verify signatures
            </Link>
            .
          </p>
        </SecretReveal>
      ) : null}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="endpoints-heading" className="flex min-w-0 flex-col gap-3">
          <div className="flex items-baseline justify-between gap-2">
            <h2 id="endpoints-heading" ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
              Endpoints
            </h2>
            {list.isFetching ? <span className="text-xs text-slate-500">updating…</span> : null}
          </div>
          <p role="status" className="sr-only">
            {announcement}
          </p>
          {list.error ? <ErrorState title="The endpoints could not be refreshed">{list.error.message}</ErrorState> : null}
          {webhooks.length === 0 ? (
            <EmptyState
              title="No endpoints yet"
              action={
                <div className="flex flex-wrap justify-center gap-2">
                  <button type="button" className={buttonClasses()} onClick={() => document.getElementById(URL_INPUT_ID)?.focus()}>
                    Add your first endpoint
                  </button>
                  <Link href="/docs/webhooks" className={buttonClasses({ variant: "secondary" })}>
                    How webhooks work
                  </Link>
                </div>
              }
            >
              Webhooks tell your systems the moment something happens — a submission received, approved or rejected, a mission completed — so you do not have to poll the API. Each
              request is signed, and failed deliveries are retried for about three days.
            </EmptyState>
          ) : (
            <ul aria-label="Webhook endpoints" className="flex flex-col gap-4">
              {webhooks.map((webhook) => (
                <WebhookEndpoint key={webhook.id} webhook={webhook} initialDeliveries={initialDeliveries[webhook.id] ?? null} graceSeconds={graceSeconds} onDeleted={onDeleted} />
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
