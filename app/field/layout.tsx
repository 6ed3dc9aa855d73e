import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { pickNamespaces } from "@/lib/i18n/catalogue";
import { CLIENT_NAMESPACES } from "@/lib/i18n/namespaces";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { env } from "@/lib/env";
import { OutboxCount } from "@/components/field/outbox-list";
import { FieldServiceWorker } from "@/components/field/field-service-worker";

export const metadata: Metadata = {
  title: "Field",
  manifest: "/field/manifest.webmanifest",
};
export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#047857",
};

export default async function FieldLayout({ children }: { children: ReactNode }) {
  const [t, messages] = await Promise.all([getTranslations("field"), getMessages()]);
  return (
    <NextIntlClientProvider messages={pickNamespaces(messages, CLIENT_NAMESPACES.field)}>
      <FieldServiceWorker enabled={env.NODE_ENV === "production"}>
        <div className="min-h-screen bg-slate-100">
          <div className="mx-auto flex min-h-screen max-w-md flex-col bg-white shadow-sm">
            <header className="flex flex-wrap items-center justify-between gap-2 bg-emerald-700 px-4 py-3 text-white">
              <span className="font-semibold">{t("header")}</span>
              <span className="flex items-center gap-2">
                <OutboxCount />
                <LanguageSwitcher />
              </span>
            </header>
            <main className="flex flex-1 flex-col gap-4 p-4">{children}</main>
          </div>
        </div>
      </FieldServiceWorker>
    </NextIntlClientProvider>
  );
}
