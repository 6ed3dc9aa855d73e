import type { Metadata } from "next";
import Link from "next/link";
import { ApiClientsSection } from "@/components/credentials/api-clients-section";
import { ApiKeysSection } from "@/components/credentials/api-keys-section";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "API credentials" };

export default async function CredentialsPage() {
  const page = await requirePageAccess("admin", "/settings/credentials");
  if (!page.allowed) {
    return (
      <>
        <PageHeader title="API credentials" />
        <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />
      </>
    );
  }

  const { api } = page.access;
  const [clients, keys] = await Promise.all([api.GET("/api/v1/clients"), api.GET("/api/v1/api-keys")]);
  const problem = (error: { detail?: string } | undefined) => error?.detail ?? "The service did not answer. Reload to try again.";
  return (
    <>
      <PageHeader
        title="API credentials"
        description={`How the systems of ${page.access.org.name} sign in to the Photo Missions API. Secrets are shown once, when they are created.`}
        actions={
          <Link href="/docs" className={buttonClasses({ variant: "secondary" })}>
            API reference
          </Link>
        }
      />
      <div className="flex flex-col gap-10">
        <ApiClientsSection clients={clients.data?.data ?? null} loadError={clients.data ? null : problem(clients.error)} tokenUrl={`${env.PUBLIC_ORIGIN}/api/v1/auth/token`} />
        <ApiKeysSection apiKeys={keys.data?.data ?? null} loadError={keys.data ? null : problem(keys.error)} orderApiUrl={`${env.PUBLIC_ORIGIN}/api/orders/v1`} />
      </div>
    </>
  );
}
