// The locale the dashboard writes numbers, money and dates in: the reader's, except that English
// keeps the British forms the dashboard has always used ("Sat 28 Nov 2026", 24-hour clock).
// Plain (no React, no "use client"), so server pages format with it too.
import { catalogueOf } from "@/lib/i18n/locales";

export function dashboardFormatLocale(locale: string): string {
  return catalogueOf(locale) === "en" ? "en-GB" : locale;
}
