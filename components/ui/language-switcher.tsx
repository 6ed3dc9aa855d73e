"use client";
// The language switcher on every page: remembered in the NEXT_LOCALE cookie for a year (read by
// lib/session/request-locale.ts before Accept-Language), then the page renders again in the new language.
// The dashboard passes `onChoose` to save the choice on the user's account instead
// (components/settings/account-language-switcher.tsx).
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { LOCALE_COOKIE, LOCALE_NAMES, LOCALES, catalogueOf, isAppLocale, type AppLocale } from "@/lib/i18n/locales";

export function LanguageSwitcher({
  className = "",
  onChoose,
  pending: choosing = false,
}: {
  className?: string;
  onChoose?: (locale: AppLocale) => void;
  pending?: boolean;
}) {
  const t = useTranslations("common");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const current = catalogueOf(locale) ?? "en";
  return (
    <select
      aria-label={t("language")}
      value={current}
      disabled={pending || choosing}
      data-testid="language-switcher"
      onChange={(e) => {
        const chosen = e.target.value;
        if (onChoose && isAppLocale(chosen)) return onChoose(chosen);
        document.cookie = `${LOCALE_COOKIE}=${e.target.value}; path=/; max-age=31536000; samesite=lax`;
        startTransition(() => router.refresh());
      }}
      className={`max-w-32 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-emerald-600 ${className}`}
    >
      {current === "en-XA" && <option value="en-XA">Pseudo</option>}
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LOCALE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}
