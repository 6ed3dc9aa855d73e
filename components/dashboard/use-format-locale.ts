"use client";
// The locale the dashboard writes numbers, money and dates in: the reader's, except that English
// keeps the British forms the dashboard has always used ("Sat 28 Nov 2026", 24-hour clock).
import { useLocale } from "next-intl";
import { catalogueOf } from "@/lib/i18n/locales";

export function dashboardFormatLocale(locale: string): string {
  return catalogueOf(locale) === "en" ? "en-GB" : locale;
}

export function useFormatLocale(): string {
  return dashboardFormatLocale(useLocale());
}
