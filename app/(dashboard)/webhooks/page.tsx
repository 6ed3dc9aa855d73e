import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorState } from "@/components/ui/states";
import type { DeliveryPage } from "@/components/webhooks/types";
import { DELIVERIES_PER_PAGE } from "@/components/webhooks/webhook-display";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { WebhooksPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("webhooks"))("title") };
}

export default async function WebhooksPage() {
  const page = await requirePageAccess("admin", "/webhooks");
  const t = await getTranslations("webhooks");
  const header = (
    <PageHeader
      title={t("title")}
      description={page.allowed ? t("description", { org: page.access.org.name }) : undefined}
      actions={
        page.allowed ? (
          <Link href="/docs/webhooks" className={buttonClasses({ variant: "secondary" })}>
            {t("documentation")}
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
        <ErrorState title={t("loadFailed")}>{error?.detail ?? t("noAnswer")}</ErrorState>
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
