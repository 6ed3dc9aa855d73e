"use client";
import { formatDate, formatDateTime, formatRelative } from "./format-time";
import { useMounted, useNow } from "./use-now";

/** "3 min ago" / "in 58 s", kept current; the exact local time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={now === null ? undefined : formatDateTime(iso)}>
      {now === null ? "" : formatRelative(iso, now)}
    </time>
  );
}

/** The exact time (or just the day) in the browser's time zone. */
export function LocalDateTime({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  const mounted = useMounted();
  return <time dateTime={iso}>{mounted ? (dateOnly ? formatDate(iso) : formatDateTime(iso)) : ""}</time>;
}
