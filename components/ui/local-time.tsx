"use client";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatDate, formatDateTime, formatRelative } from "./format-time";
import { useMounted, useNow } from "./use-now";

/** "3 min ago" / "in 58 s", kept current, in the reader's language; the exact local time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  const locale = useFormatLocale();
  return (
    <time dateTime={iso} title={now === null ? undefined : formatDateTime(iso, locale)}>
      {now === null ? "" : formatRelative(iso, now, locale)}
    </time>
  );
}

/** The exact time (or just the day) in the browser's time zone and the reader's locale. */
export function LocalDateTime({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  const mounted = useMounted();
  const locale = useFormatLocale();
  return <time dateTime={iso}>{mounted ? (dateOnly ? formatDate(iso, locale) : formatDateTime(iso, locale)) : ""}</time>;
}
