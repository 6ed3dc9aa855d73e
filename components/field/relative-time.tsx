"use client";
// "in 25 minutes", "dentro de 25 minutos": a time relative to now in the reader's language, kept
// current (nothing on the server render, whose clock and ICU may differ from the phone's).
import { useFormatter } from "next-intl";
import { useNow } from "@/components/ui/use-now";

export function useRelativeTime(): (iso: string) => string | null {
  const format = useFormatter();
  const now = useNow();
  return (iso) => (now === null ? null : format.relativeTime(new Date(iso), now));
}

export function FieldRelativeTime({ iso }: { iso: string }) {
  const relative = useRelativeTime()(iso);
  return <time dateTime={iso}>{relative}</time>;
}
