import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { safeCallbackPath } from "@/lib/session/callback-url";
import { env } from "@/lib/env";
import { DEMO_USER } from "@/lib/demo/demo-user";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { SignInForm } from "./sign-in-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("site.signIn"))("title") };
}

/** next-auth's ?error= values (and ours from the OIDC check) → their message in site.signIn.error. */
const ERRORS: Record<string, string> = {
  CredentialsSignin: "credentials",
  oidc_unknown: "oidcUnknown",
  oidc_unverified: "oidcUnverified",
  SessionRequired: "sessionRequired",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a path of this site: an open redirect after sign-in is a phishing tool.
  const callbackUrl = safeCallbackPath(params.callbackUrl, env.PUBLIC_ORIGIN);
  if (await getDashboardAccess()) redirect(callbackUrl);
  const errorKey = typeof params.error === "string" ? params.error : undefined;
  const t = await getTranslations("site");
  return (
    <main className="relative flex min-h-screen items-center justify-center px-4 py-12">
      {/* Before signing in there is no account to keep a language on: the switcher's cookie (NEXT_LOCALE) does, as on the field page. */}
      <div className="absolute end-4 top-4">
        <LanguageSwitcher />
      </div>
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex flex-col gap-1 text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">{t("name")}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t("signIn.heading")}</h1>
        </div>
        <SignInForm
          callbackUrl={callbackUrl}
          initialError={errorKey ? t(`signIn.error.${ERRORS[errorKey] ?? "other"}`) : null}
          demo={env.DEMO_ENABLED ? { email: DEMO_USER.email } : null}
          oidcName={env.OIDC?.name ?? null}
        />
      </div>
    </main>
  );
}
