// The API's English for a recurrence: the same catalogue messages the dashboard reads
// (messages/en/vocabulary.json "schedule"), formatted here with use-intl's core translator (no
// React, no Next), and the API's own fixed forms for weekdays ("Friday"), times ("18:00", the
// 24-hour HH:MM the rule is written in) and dates ("12 Jun 2027") so answers do not depend on the
// server's Intl data.
import { createTranslator } from "use-intl/core";
import vocabulary from "@/messages/en/vocabulary.json" with { type: "json" };
import type { ScheduleKey, ScheduleWords } from "@/lib/orders/describe-recurrence";
import { parseLocalDate } from "@/lib/geo/time-zone";
import { WEEKDAYS } from "@/lib/orders/recurrence-rule";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

const translate = createTranslator({ locale: "en", messages: { vocabulary }, namespace: "vocabulary.schedule" });

export const ENGLISH_SCHEDULE_WORDS: ScheduleWords = {
  say: (key: ScheduleKey, values?: Record<string, string | number>) => translate(key, values),
  weekday: (isoDay) => WEEKDAYS[isoDay - 1] ?? "",
  clock: (hhmm) => hhmm,
  date: (ymd, withYear) => {
    const p = parseLocalDate(ymd);
    if (!p) return ymd;
    return `${p.day} ${MONTHS[p.month - 1] ?? ""}${withYear ? ` ${p.year}` : ""}`;
  },
  list: (items) => items.join(", "),
};
