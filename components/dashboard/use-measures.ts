"use client";
// Areas and distances for the reader of this page: digits in the dashboard's format locale,
// metric or imperial by the reader's own tag (en-US reads acres and feet).
import { useLocale } from "next-intl";
import { useMemo } from "react";
import { formatAreaIn, formatDistanceIn } from "@/lib/geo/format-measure";
import { dashboardFormatLocale } from "@/components/ui/format-locale";

export function useMeasures(): { area: (m2: number) => string; distance: (metres: number) => string } {
  const locale = useLocale();
  return useMemo(() => {
    const format = dashboardFormatLocale(locale);
    return { area: (m2: number) => formatAreaIn(m2, format, locale), distance: (metres: number) => formatDistanceIn(metres, format, locale) };
  }, [locale]);
}
