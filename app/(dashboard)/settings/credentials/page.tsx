import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ApiClientsSection } from "@/components/credentials/api-clients-section";
import { ApiKeysSection } from "@/components/credentials/api-keys-section";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("settings.credentials"))("title") };
}

export default async function CredentialsPage() {
  const page = await requirePageAccess("admin", "/settings/credentials");
  const t = await getTranslations("settings.credentials");
  if (!page.allowed) {
    return (
      <>
        <PageHeader title={t("title")} />
        <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />
      </>
    );
  }

  const { api } = page.access;
  const [clients, keys] = await Promise.all([api.GET("/api/v1/clients"), api.GET("/api/v1/api-keys")]);
  const problem = (error: { detail?: string } | undefined) => error?.detail ?? t("noAnswer");
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description", { org: page.access.org.name })}
        actions={
          <Link href="/docs" className={buttonClasses({ variant: "secondary" })}>
            {t("reference")}
          </Link>
        }
      />
      <div className="flex flex-col gap-10">
        <ApiClientsSection
          clients={clients.data?.data ?? null}
          loadError={clients.data ? null : problem(clients.error)}
          tokenUrl={`${env.PUBLIC_ORIGIN}/api/v1/auth/token`}
        />
        <ApiKeysSection
          apiKeys={keys.data?.data ?? null}
          loadError={keys.data ? null : problem(keys.error)}
          orderApiUrl={`${env.PUBLIC_ORIGIN}/api/orders/v1`}
        />
      </div>
    </>
  );
}
