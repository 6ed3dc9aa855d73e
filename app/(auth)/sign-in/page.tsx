import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { env } from "@/lib/env";
import { DEMO_USER } from "@/lib/demo/demo-user";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That email and password did not match an account.",
  oidc_unknown: "Your single sign-on account is not a member of any organisation here. Ask your administrator to invite you.",
  oidc_unverified: "Your identity provider did not confirm your email address.",
  SessionRequired: "Sign in to continue.",
};

function safeCallback(value: string | undefined): string {
  // Only same-origin paths: an open redirect after sign-in is a phishing tool.
  return value && value.startsWith("/") && !value.startsWith("//") ? value : "/missions";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  if (await getDashboardAccess()) redirect(callbackUrl);
  const errorKey = typeof params.error === "string" ? params.error : undefined;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex flex-col gap-1 text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">Photo Missions</p>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in to your dashboard</h1>
        </div>
        <SignInForm
          callbackUrl={callbackUrl}
          initialError={errorKey ? (ERRORS[errorKey] ?? "Sign-in failed. Try again.") : null}
          demo={env.DEMO_ENABLED ? { email: DEMO_USER.email } : null}
          oidcName={env.OIDC?.name ?? null}
        />
      </div>
    </main>
  );
}
