import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Messages } from "@/lib/i18n/pseudo";
import { describeRule, type RecurrenceRule } from "@/lib/service/orders/cycles/cycle-calendar";
import arJson from "@/messages/ar/vocabulary.json";
import deJson from "@/messages/de/vocabulary.json";
import enJson from "@/messages/en/vocabulary.json";
import { describeSchedule, localClock, weekdayName, type ScheduleSay } from "./schedule-words";

const catalogues: Record<string, Messages> = { en: enJson, de: deJson, ar: arJson };
// The catalogue's keys are only known at run time here.
const words = (locale: string) =>
  createTranslator({ locale, messages: { vocabulary: catalogues[locale] ?? {} }, namespace: "vocabulary.schedule" }) as unknown as ScheduleSay;

const ROME = { lat: 41.9 };
const SYDNEY = { lat: -33.87 };

// The API's English (describeRule) and the pages' English (en-GB, the dashboard's English) from one
// description: the same words for every rule, with and without a location's hemisphere.
const TABLE: { rule: RecurrenceRule; where?: { lat: number }; english: string }[] = [
  { rule: { frequency: "daily" }, english: "Every day" },
  { rule: { frequency: "weekly" }, english: "Every Monday" },
  { rule: { frequency: "weekly", day_of_week: 7 }, english: "Every Sunday" },
  { rule: { frequency: "monthly" }, english: "Monthly, delivered by the end of the month" },
  { rule: { frequency: "monthly", deliver_before: 22 }, english: "Monthly, delivered before the 22nd" },
  { rule: { frequency: "monthly", deliver_before: 11 }, english: "Monthly, delivered before the 11th" },
  {
    rule: { frequency: "weekly", day_of_week: 5, season: "summer_only", time_window: "18:00-21:00" },
    english: "Every Friday, in summer, 18:00–21:00 local time",
  },
  {
    rule: { frequency: "weekly", day_of_week: 5, season: "summer_only", time_window: "18:00-21:00" },
    where: ROME,
    english: "Every Friday, June to August, 18:00–21:00 local time",
  },
  {
    rule: { frequency: "weekly", day_of_week: 5, season: "summer_only", time_window: "18:00-21:00" },
    where: SYDNEY,
    english: "Every Friday, December to February, 18:00–21:00 local time",
  },
  { rule: { frequency: "daily", season: "winter_only" }, where: ROME, english: "Every day, December to February" },
  { rule: { frequency: "daily", season: "winter_only" }, where: SYDNEY, english: "Every day, June to August" },
  { rule: { frequency: "daily", time_window: "22:00-02:00" }, english: "Every day, 22:00–02:00 local time (ending the next day)" },
  {
    rule: { frequency: "weekly", day_of_week: 6, season: "winter_only", event_nights_only: true, event_dates: ["2026-12-12", "2026-12-05", "2027-01-02"] },
    english: "On 3 event nights: 5 Dec, 12 Dec 2026, 2 Jan 2027, Saturdays only, winter dates only",
  },
  {
    rule: { frequency: "daily", event_nights_only: true, event_dates: ["01", "02", "03", "04", "05", "06", "07"].map((d) => `2027-08-${d}`) },
    english: "On 7 event nights: 1 Aug 2027 to 7 Aug 2027",
  },
  { rule: { frequency: "daily", event_nights_only: true }, english: "On event nights (no dates listed yet)" },
];

describe("one description for the API and the pages", () => {
  for (const { rule, where, english } of TABLE) {
    it(english, () => {
      expect(describeRule(rule, where)).toBe(english);
      expect(describeSchedule({ enabled: true, ...rule }, words("en"), "en-GB", where)).toBe(english);
    });
  }

  it("says nothing of a rule that is off", () => {
    expect(describeSchedule({ enabled: false, frequency: "daily" }, words("en"), "en-GB")).toBeNull();
    expect(describeSchedule(null, words("en"), "en-GB")).toBeNull();
  });
});

describe("describeSchedule in the reader's language", () => {
  it("speaks German with German weekdays, dates, months and a 24-hour clock", () => {
    const say = words("de");
    expect(describeSchedule({ enabled: true, frequency: "weekly", day_of_week: 5, season: "winter_only", time_window: "18:00-21:00" }, say, "de")).toBe(
      "Jeden Freitag, im Winter, 18:00–21:00 Ortszeit",
    );
    expect(describeSchedule({ enabled: true, frequency: "weekly", day_of_week: 5, season: "winter_only" }, say, "de", SYDNEY)).toBe(
      "Jeden Freitag, Juni bis August",
    );
    expect(describeSchedule({ enabled: true, frequency: "weekly", day_of_week: 5, event_nights_only: true, event_dates: ["2026-12-04"] }, say, "de")).toBe(
      "An 1 Veranstaltungsabend: 4. Dez. 2026, nur an Freitagen",
    );
  });

  it("writes Arabic with Arabic weekdays", () => {
    expect(describeSchedule({ enabled: true, frequency: "weekly", day_of_week: 5 }, words("ar"), "ar")).toBe(`أسبوعيًا، يوم ${weekdayName(5, "ar")}`);
  });

  it("writes times on the reader's clock", () => {
    expect(describeSchedule({ enabled: true, frequency: "daily", time_window: "18:00-21:00" }, words("en"), "en-US")).toMatch(
      /^Every day, 6:00\sPM–9:00\sPM local time$/,
    );
  });
});

describe("localClock", () => {
  it("keeps one clock per locale", () => {
    expect(localClock("18:05", "en-GB")).toBe("18:05");
    expect(localClock("18:05", "de")).toBe("18:05");
    expect(localClock("18:05", "en-US")).toMatch(/^6:05\sPM$/);
  });
});
