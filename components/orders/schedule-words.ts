// A recurring order's schedule in the reader's words ("Every Friday, 18:00–21:00 local time"),
// from the order's rule rather than the API's English description (its `schedule` and
// `description` stay English for integrators). Mirrors describeRule in
// lib/service/orders/cycles/cycle-calendar.ts for the parts a reader needs.
import type { Recurring } from "./types";
import { formatClock, type Words } from "./translate";

/** The ISO weekday (1 = Monday) in the reader's language, e.g. "Friday" / "Freitag". */
export function weekdayName(isoDay: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2024, 0, isoDay)); // 1 Jan 2024 was a Monday
}

export function scheduleWords(rule: Recurring, { t, locale }: Words): string {
  const parts: string[] = [];
  const weekday = rule.frequency === "weekly" ? weekdayName(rule.day_of_week ?? 1, locale) : null;
  const season = rule.season ?? "all_year";
  if (rule.event_nights_only) {
    parts.push(t("schedule.eventNights", { count: rule.event_dates?.length ?? 0 }));
    if (weekday && rule.day_of_week !== undefined) parts.push(t("schedule.weekdayOnly", { weekday }));
  } else if (rule.frequency === "daily") parts.push(t("schedule.daily"));
  else if (weekday) parts.push(t("schedule.weekly", { weekday }));
  else {
    const day = Number.parseInt(String(rule.deliver_before ?? ""), 10);
    parts.push(Number.isFinite(day) ? t("schedule.monthlyBefore", { day }) : t("schedule.monthly"));
  }
  if (season !== "all_year") parts.push(t(`schedule.season.${season}`));
  const [start, end] = rule.time_window?.split("-") ?? [];
  if (start && end) {
    const window = t("cycles.localWindow", { start: formatClock(start, locale), end: formatClock(end, locale) });
    parts.push(end < start ? t("schedule.endingNextDay", { window }) : window);
  }
  return parts.join(t("schedule.separator"));
}
