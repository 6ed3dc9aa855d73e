import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { Messages } from "@/lib/i18n/pseudo";
import arJson from "@/messages/ar/wizard.json";
import deJson from "@/messages/de/wizard.json";
import enJson from "@/messages/en/wizard.json";
import { describeRecurrence, localClock, weekdayName, type ScheduleWords } from "./describe-recurrence";

const catalogues: Record<string, Messages> = { en: enJson, de: deJson, ar: arJson };
// The catalogue's keys are only known at run time here.
const words = (locale: string) => createTranslator({ locale, messages: { wizard: catalogues[locale] ?? {} }, namespace: "wizard.schedule" }) as unknown as ScheduleWords;

describe("describeRecurrence", () => {
  it("says the order interface's English parts", () => {
    const say = words("en");
    expect(describeRecurrence({ enabled: true, frequency: "weekly", day_of_week: 5, season: "summer_only", time_window: "18:00-21:00" }, say, "en-GB")).toBe(
      "Every Friday, in summer, 18:00–21:00 local time",
    );
    expect(describeRecurrence({ enabled: true, frequency: "monthly", deliver_before: 22 }, say, "en-GB")).toBe("Monthly, delivered before the 22nd");
    expect(describeRecurrence({ enabled: true, frequency: "daily", time_window: "22:00-02:00" }, say, "en-GB")).toBe("Every day, 22:00–02:00 local time (ending the next day)");
    expect(describeRecurrence({ enabled: true, frequency: "weekly", day_of_week: 6, event_nights_only: true, event_dates: ["2026-12-05", "2026-12-12"] }, say, "en-GB")).toBe(
      "On 2 event nights: 5 Dec 2026 and 12 Dec 2026, Saturdays only",
    );
    expect(describeRecurrence({ enabled: false }, say, "en-GB")).toBeNull();
  });

  it("speaks German with German weekdays, dates and a 24-hour clock", () => {
    const say = words("de");
    expect(describeRecurrence({ enabled: true, frequency: "weekly", day_of_week: 5, season: "winter_only", time_window: "18:00-21:00" }, say, "de")).toBe(
      "Jeden Freitag, im Winter, 18:00–21:00 Ortszeit",
    );
    expect(describeRecurrence({ enabled: true, frequency: "weekly", day_of_week: 5, event_nights_only: true, event_dates: ["2026-12-04"] }, say, "de")).toBe(
      "An 1 Veranstaltungsabend: 4. Dez. 2026, nur an Freitagen",
    );
  });

  it("writes Arabic with Arabic weekdays", () => {
    expect(describeRecurrence({ enabled: true, frequency: "weekly", day_of_week: 5 }, words("ar"), "ar")).toBe(`أسبوعيًا، يوم ${weekdayName(5, "ar")}`);
  });
});

describe("localClock", () => {
  it("keeps one clock per locale", () => {
    expect(localClock("18:05", "en-GB")).toBe("18:05");
    expect(localClock("18:05", "de")).toBe("18:05");
    expect(localClock("18:05", "en-US")).toMatch(/^6:05\sPM$/);
  });
});
