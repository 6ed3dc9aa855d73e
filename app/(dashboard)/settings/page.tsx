import type { Metadata } from "next";
import Link from "next/link";
import { getServerSession } from "next-auth";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/page-header";
import { authOptions } from "@/lib/session/next-auth-options";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { LanguageForm } from "./language-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("settings"))("title") };
}

// The signed-in user's own settings (every role); the organisation's API credentials have their own page.
export default async function SettingsPage() {
  const [{ access }, session, t] = await Promise.all([requirePageAccess("viewer", "/settings"), getServerSession(authOptions()), getTranslations("settings")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="flex flex-col gap-10">
        <section aria-labelledby="language-heading" className="flex flex-col gap-3">
          <h2 id="language-heading" className="text-lg font-semibold text-slate-900">
            {t("language.heading")}
          </h2>
          {/* The session's copy: the language the pages are rendered in now (lib/session/request-locale.ts). */}
          <LanguageForm current={session?.user.locale ?? null} />
        </section>
        {roleAtLeast(access.role, "admin") ? (
          <section aria-labelledby="organisation-heading" className="flex flex-col gap-2">
            <h2 id="organisation-heading" className="text-lg font-semibold text-slate-900">
              {t("organisation.heading")}
            </h2>
            <p className="text-sm text-slate-600">
              <Link href="/settings/credentials" className="font-medium text-emerald-800 underline underline-offset-2">
                {t("organisation.credentials")}
              </Link>{" "}
              — {t("organisation.credentialsHint")}
            </p>
          </section>
        ) : null}
      </div>
    </>
  );
}
