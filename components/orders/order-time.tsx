"use client";
// An instant on the order pages in the reader's locale and clock: in the place's own time zone,
// named, when the time is about a place (when a photo was taken there), else in the reader's zone.
// Written once mounted, so the server's zone never shows.
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { useMounted } from "@/components/ui/use-now";

export function OrderTime({ iso, timeZone, dateOnly = false }: { iso: string; timeZone?: string; dateOnly?: boolean }) {
  const locale = useFormatLocale();
  const mounted = useMounted();
  const options: Intl.DateTimeFormatOptions = dateOnly
    ? { day: "numeric", month: "short", year: "numeric" }
    : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", ...(timeZone ? { timeZoneName: "short" } : {}) };
  return <time dateTime={iso}>{mounted ? new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) }).format(new Date(iso)) : ""}</time>;
}
