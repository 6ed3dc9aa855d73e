"use client";
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import { safeCallbackPath } from "@/lib/session/callback-url";

/** next-auth's error for a failed sign-in → its message key and values in site.signIn.error. */
function describeError(error: string): { key: "rateLimited"; minutes: number } | { key: "credentials" | "other" } {
  const limited = /^rate_limited:(\d+)$/.exec(error);
  if (limited) return { key: "rateLimited", minutes: Math.ceil(Number(limited[1]) / 60) };
  return { key: error === "CredentialsSignin" ? "credentials" : "other" };
}

export function SignInForm({
  callbackUrl,
  initialError,
  demo,
  oidcName,
}: {
  callbackUrl: string;
  initialError: string | null;
  demo: { email: string } | null;
  oidcName: string | null;
}) {
  const t = useTranslations("site.signIn");
  const router = useRouter();
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function submit(credentials: { email: string; password: string } | { demo: "true" }) {
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { ...credentials, redirect: false, callbackUrl });
    if (!result || result.error) {
      const described = describeError(result?.error ?? "");
      setError(described.key === "rateLimited" ? t("error.rateLimited", { minutes: described.minutes }) : t(`error.${described.key}`));
      setPending(false);
      return;
    }
    // The page checked it already; checked again where it is followed, against this page's origin.
    router.replace(safeCallbackPath(callbackUrl, window.location.origin));
    router.refresh();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void submit({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
  }

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={onSubmit} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-label={t("form")}>
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <Field id="email" label={t("email")}>
          <TextInput id="email" name="email" type="email" autoComplete="username" required />
        </Field>
        <Field id="password" label={t("password")}>
          <TextInput id="password" name="password" type="password" autoComplete="current-password" required />
        </Field>
        <Button type="submit" disabled={pending}>
          {pending ? t("submitting") : t("submit")}
        </Button>
        {oidcName ? (
          <Button variant="secondary" disabled={pending} onClick={() => void signIn("oidc", { callbackUrl })}>
            {t("oidc", { provider: oidcName })}
          </Button>
        ) : null}
      </form>
      {demo ? (
        <section aria-labelledby="demo-heading" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950">
          <h2 id="demo-heading" className="font-semibold">
            {t("demoHeading")}
          </h2>
          <p className="mt-1">{t("demoIntro", { email: demo.email })}</p>
          <Button className="mt-3 w-full" variant="secondary" disabled={pending} onClick={() => void submit({ demo: "true" })}>
            {t("demoSubmit")}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
