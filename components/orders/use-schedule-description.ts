"use client";
// The wizard's and the order pages' hook over describeSchedule: the `vocabulary.schedule` messages
// and the dashboard's formatting locale (English reads en-GB).
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import type { RuleToDescribe } from "@/lib/orders/describe-recurrence";
import { describeSchedule } from "./schedule-words";

export function useScheduleDescription(): (rule: (RuleToDescribe & { enabled?: boolean }) | null | undefined, where?: { lat: number }) => string | null {
  const say = useTranslations("vocabulary.schedule");
  const locale = useFormatLocale();
  return useCallback((rule, where) => describeSchedule(rule, (key, values) => say(key, values), locale, where), [say, locale]);
}
