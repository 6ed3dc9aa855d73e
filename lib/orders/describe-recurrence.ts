// A recurrence rule in words, once for every reader: the API's English `schedule` and `description`
// (lib/service/orders/cycles/cycle-calendar describeRule) and the wizard's and order pages' words
// in the reader's language come from this function and the catalogue's `vocabulary.schedule`
// messages; only how a weekday, a clock time, a date and a list are written differs per caller.
// Pure: no clock, no Intl choice of its own.
import { parseDayOfMonth, parseTimeWindow } from "./recurrence-rule";

/** The keys of messages/<locale>/vocabulary.json's "schedule" the description uses. */
export type ScheduleKey =
  | "daily"
  | "weekly"
  | "monthly"
  | "monthlyBefore"
  | "season"
  | "seasonMonths"
  | "events"
  | "dateRange"
  | "weekdayOnly"
  | "seasonDatesOnly"
  | "window"
  | "windowOvernight"
  | "separator";

/** How a caller words the parts: the catalogue's messages and its own way with weekdays, times and dates. */
export interface ScheduleWords {
  say: (key: ScheduleKey, values?: Record<string, string | number>) => string;
  /** ISO weekday 1 (Monday) … 7 (Sunday) → its name. */
  weekday: (isoDay: number) => string;
  /** "HH:MM" local → a clock time. */
  clock: (hhmm: string) => string;
  /** "YYYY-MM-DD" → a day and month, with the year when asked. */
  date: (ymd: string, withYear: boolean) => string;
  /** Already-written items → one list. */
  list: (items: string[]) => string;
}

/** The members of a rule the description reads; a draft's loose values are read the same way. */
export interface RuleToDescribe {
  frequency?: string;
  day_of_week?: number;
  deliver_before?: string | number;
  season?: string;
  time_window?: string;
  event_nights_only?: boolean;
  event_dates?: string[];
}

/** More event dates than this are said as their first and last. */
const LISTED_DATES = 6;

/**
 * "Every Friday, June to August, 18:00–21:00 local time". Season months depend on the hemisphere,
 * so they are named only when `where` is given ("in summer" otherwise). Event dates are sorted,
 * de-duplicated, and carry their year once per run of dates in the same year.
 */
export function describeRecurrence(rule: RuleToDescribe, words: ScheduleWords, where?: { lat: number }): string {
  const { say } = words;
  const parts: string[] = [];
  const season = rule.season === "summer_only" ? "summer" : rule.season === "winter_only" ? "winter" : null;
  const weekday = rule.frequency === "weekly" && rule.day_of_week !== undefined ? words.weekday(rule.day_of_week) : null;
  if (rule.event_nights_only) {
    const dates = [...new Set(rule.event_dates ?? [])].sort();
    parts.push(say("events", { count: dates.length, dates: listEventDates(dates, words) }));
    // Season and weekday still apply: they leave out the dates they exclude.
    if (weekday) parts.push(say("weekdayOnly", { weekday }));
    if (season) parts.push(say("seasonDatesOnly", { season }));
  } else {
    if (rule.frequency === "daily") parts.push(say("daily"));
    else if (rule.frequency === "weekly") parts.push(say("weekly", { weekday: weekday ?? words.weekday(1) }));
    else {
      const day = rule.deliver_before === undefined ? null : parseDayOfMonth(rule.deliver_before);
      parts.push(day === null ? say("monthly") : say("monthlyBefore", { day }));
    }
    if (season && !where) parts.push(say("season", { season }));
    else if (season && where) parts.push(say("seasonMonths", { months: (season === "summer") === where.lat >= 0 ? "jun_aug" : "dec_feb" }));
  }
  const window = rule.time_window === undefined ? null : parseTimeWindow(rule.time_window);
  if (window) parts.push(say(window.crossesMidnight ? "windowOvernight" : "window", { start: words.clock(window.start), end: words.clock(window.end) }));
  return parts.join(say("separator"));
}

/** Sorted event dates as one list, "12 Jun, 13 Jun, 20 Jun 2027": the year once per run of dates in
 * the same year; a long list by its first and last date so a label stays one line. */
export function listEventDates(dates: string[], words: ScheduleWords): string {
  const first = dates[0];
  const last = dates[dates.length - 1];
  if (dates.length > LISTED_DATES && first !== undefined && last !== undefined) {
    return words.say("dateRange", { first: words.date(first, true), last: words.date(last, true) });
  }
  return words.list(dates.map((d, i) => words.date(d, dates[i + 1]?.slice(0, 4) !== d.slice(0, 4))));
}
