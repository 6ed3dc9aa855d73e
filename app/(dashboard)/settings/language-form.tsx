"use client";
// The account's language on the settings page: the browser's languages (no choice saved) or one of
// the dashboard's languages. Saved as soon as it is chosen; the page then renders in it.
import { useTranslations } from "next-intl";
import { useId } from "react";
import { useAccountLocale } from "@/components/settings/use-account-locale";
import { Field, fieldAria, inputClasses } from "@/components/ui/field";
import { DASHBOARD_LOCALES, LOCALE_NAMES, isAppLocale, type AppLocale } from "@/lib/i18n/locales";

const BROWSER = "";

export function LanguageForm({ current }: { current: AppLocale | null }) {
  const t = useTranslations("settings.language");
  const id = `${useId()}-language`;
  const { choose, pending, failed } = useAccountLocale();
  // A field-page language chosen with the switcher is kept in the list, so the select shows the truth.
  const choices = current && !DASHBOARD_LOCALES.includes(current) ? [...DASHBOARD_LOCALES, current] : DASHBOARD_LOCALES;
  const errors = failed ? [t("failed")] : undefined;
  return (
    <div className="flex max-w-md flex-col gap-2">
      <Field id={id} label={t("label")} hint={t("hint")} errors={errors}>
        <select
          {...fieldAria(id, errors, true)}
          value={current ?? BROWSER}
          disabled={pending}
          aria-busy={pending || undefined}
          onChange={(e) => choose(isAppLocale(e.target.value) ? e.target.value : null)}
          className={inputClasses}
        >
          <option value={BROWSER}>{t("browser")}</option>
          {choices.map((code) => (
            <option key={code} value={code} lang={code}>
              {LOCALE_NAMES[code]}
            </option>
          ))}
        </select>
      </Field>
      <p role="status" className="text-xs text-slate-500">
        {pending ? t("saving") : ""}
      </p>
    </div>
  );
}
