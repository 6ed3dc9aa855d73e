"use client";
import { useLocale } from "next-intl";
import { dashboardFormatLocale } from "./format-locale";

export { dashboardFormatLocale };

/** The dashboard's format locale (format-locale.ts) for the reader of this page. */
export function useFormatLocale(): string {
  return dashboardFormatLocale(useLocale());
}
