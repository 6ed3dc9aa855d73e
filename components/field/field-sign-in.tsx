"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { signIn, signInAsDemoZoomer, type SignInState } from "@/lib/field-server/field-actions";
import { OthersWaiting } from "./others-waiting";
import { useOutboxOwner } from "./use-outbox";

export function FieldSignIn({ demo }: { demo: boolean }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  const [demoState, demoAction, demoPending] = useActionState<SignInState>(signInAsDemoZoomer, {});
  const t = useTranslations("field.signIn");
  // Nobody is signed in: no photo leaves this phone, and the last session's kept lists go.
  useOutboxOwner(null);
  return (
    <section className="flex flex-col gap-4" aria-labelledby="field-sign-in">
      <h1 id="field-sign-in" className="text-xl font-semibold">
        {t("heading")}
      </h1>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <OthersWaiting />
      <form action={action} className="flex flex-col gap-3" noValidate>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("clientId")}
          <input
            name="client_id"
            autoComplete="username"
            required
            className="rounded-md border border-slate-300 px-3 py-2 font-mono text-base focus-visible:outline-2 focus-visible:outline-emerald-600"
            aria-invalid={Boolean(state.fieldErrors?.client_id)}
            aria-describedby="client-id-error"
          />
          {state.fieldErrors?.client_id && (
            <span id="client-id-error" className="text-sm text-red-700">
              {state.fieldErrors.client_id}
            </span>
          )}
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("clientSecret")}
          <input
            name="client_secret"
            type="password"
            autoComplete="current-password"
            required
            className="rounded-md border border-slate-300 px-3 py-2 font-mono text-base focus-visible:outline-2 focus-visible:outline-emerald-600"
            aria-invalid={Boolean(state.fieldErrors?.client_secret)}
            aria-describedby="client-secret-error"
          />
          {state.fieldErrors?.client_secret && (
            <span id="client-secret-error" className="text-sm text-red-700">
              {state.fieldErrors.client_secret}
            </span>
          )}
        </label>
        {state.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {state.error}
          </p>
        )}
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-emerald-700 px-4 py-3 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60"
        >
          {pending ? t("submitting") : t("submit")}
        </button>
      </form>
      {demo && (
        <form action={demoAction} className="flex flex-col gap-2 border-t border-slate-200 pt-4">
          <p className="text-sm text-slate-600">{t("demoIntro")}</p>
          <button
            type="submit"
            disabled={demoPending}
            className="rounded-md border border-emerald-700 px-4 py-3 font-semibold text-emerald-800 hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 disabled:opacity-60"
          >
            {demoPending ? t("demoSubmitting") : t("demoSubmit")}
          </button>
          {demoState.error && (
            <p role="alert" className="text-sm text-red-800">
              {demoState.error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
