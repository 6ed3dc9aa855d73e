import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import { DashboardShell } from "@/components/dashboard/dashboard-shell";
import { BasemapProvider } from "@/components/map/basemap-provider";
import { QueryProvider } from "@/components/providers/query-provider";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { pickNamespaces } from "@/lib/i18n/catalogue";
import { CLIENT_NAMESPACES } from "@/lib/i18n/namespaces";
import { env } from "@/lib/env";
import { basemapConfig } from "@/lib/map/basemap-config";
import { offlineAssetsPath } from "@/lib/map/offline-basemap-assets";

// The frame only: each page checks the role it needs itself (a layout does not re-run on
// client navigation, so it cannot be the place where access is decided).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const access = await getDashboardAccess();
  if (!access) redirect("/sign-in");
  const messages = await getMessages();
  return (
    <NextIntlClientProvider messages={pickNamespaces(messages, CLIENT_NAMESPACES.dashboard)}>
      <QueryProvider>
        <DashboardShell
          user={{ name: access.user.name, email: access.user.email }}
          org={access.org}
          role={access.role}
          memberships={access.memberships.map((m) => ({ id: m.org_id, name: m.org_name, role: m.role }))}
        >
          <BasemapProvider config={basemapConfig(env, offlineAssetsPath())} userId={access.user.id}>
            {children}
          </BasemapProvider>
        </DashboardShell>
      </QueryProvider>
    </NextIntlClientProvider>
  );
}
