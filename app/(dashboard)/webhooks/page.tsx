import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorState } from "@/components/ui/states";
import type { DeliveryPage } from "@/components/webhooks/types";
import { DELIVERIES_PER_PAGE } from "@/components/webhooks/webhook-display";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { WebhooksPageClient } from "./page-client";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const page = await requirePageAccess("admin", "/webhooks");
  const header = (
    <PageHeader
      title="Webhooks"
      description={page.allowed ? `Signed HTTP POSTs to your systems when missions and submissions of ${page.access.org.name} change.` : undefined}
      actions={
        page.allowed ? (
          <Link href="/docs/webhooks" className={buttonClasses({ variant: "secondary" })}>
            Webhook documentation
          </Link>
        ) : null
      }
    />
  );
  if (!page.allowed) {
    return (
      <>
        {header}
        <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />
      </>
    );
  }

  const { data, error } = await page.access.api.GET("/api/v1/webhooks");
  if (!data) {
    return (
      <>
        {header}
        <ErrorState title="The webhook endpoints could not be loaded">{error?.detail ?? "The service did not answer. Reload to try again."}</ErrorState>
      </>
    );
  }
  // The first page of each log too, so every endpoint shows its last delivery without a spinner.
  const logs = await Promise.all(
    data.data.map(async (webhook): Promise<[string, DeliveryPage | null]> => {
      const { data: deliveries } = await page.access.api.GET("/api/v1/webhooks/{id}/deliveries", {
        params: { path: { id: webhook.id }, query: { page: 1, per_page: DELIVERIES_PER_PAGE } },
      });
      return [webhook.id, deliveries ?? null];
    }),
  );

  return (
    <>
      {header}
      <WebhooksPageClient initialWebhooks={data.data} initialDeliveries={Object.fromEntries(logs)} graceSeconds={env.WEBHOOK_SECRET_GRACE_SECONDS} />
    </>
  );
}
