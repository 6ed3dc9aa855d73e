import { describe, expect, it } from "vitest";
import { basisText, formatDeliverBy, reasonText, zoomersText } from "./delivery-words";
import { testWords } from "./test-words";

const estimate = {
  p50_hours: 9.5,
  p90_hours: 30,
  deliver_by: "2026-12-01T13:00:00.000Z",
  basis: { similar_tasks: 87, zoomers_nearby_30d: 1, radius_km: 25 },
};
const en = testWords("en", "en-GB");
// Spaces of any kind as plain spaces: Intl writes narrow no-break spaces in some places.
const plain = (s: string) => s.replace(/\s/g, " ");

describe("delivery words", () => {
  it("says the estimate's basis: the sample, its radius, p90 and p50, and the contributors nearby", () => {
    expect(basisText(estimate, en)).toBe("9 in 10 of the 87 similar tasks delivered within 25 km of here took 30 h or less; half took 9.5 h or less.");
    expect(zoomersText(estimate, en)).toBe("1 contributor sent photos within 25 km in the last 30 days.");
    expect(zoomersText({ ...estimate, basis: { ...estimate.basis, zoomers_nearby_30d: 0 } }, en)).toBe(
      "No contributor has sent a photo within 25 km in the last 30 days.",
    );
    expect(plain(basisText(estimate, testWords("de", "de")))).toBe(
      "9 von 10 der 87 ähnlichen Aufgaben im Umkreis von 25 km wurden in höchstens 30 Std. geliefert; die Hälfte in höchstens 9,5 Std.",
    );
  });

  it("writes by when on the reader's clock, in their zone", () => {
    expect(plain(formatDeliverBy(estimate.deliver_by, "en-GB", "Europe/Rome"))).toBe("Tue 1 Dec, 14:00 CET");
    expect(plain(formatDeliverBy(estimate.deliver_by, "en-GB", "America/New_York"))).toBe("Tue 1 Dec, 08:00 GMT-5");
  });

  it("says plainly why there is no estimate, from the reason's code", () => {
    expect(reasonText({ code: "no_history", message: "…", params: { radius_km: 100 } }, en)).toBe(
      "No estimate yet: no photos have been taken near here (within 100 km).",
    );
    expect(
      reasonText(
        {
          code: "too_little_history",
          message: "…",
          params: { similar_tasks: 1, minimum: 3, radius_km: 100 },
        },
        en,
      ),
    ).toBe("No estimate yet: only 1 task has been delivered within 100 km of here, and an estimate needs at least 3.");
    expect(reasonText({ code: "no_history", message: "…", params: { radius_km: 100 } }, testWords("fr", "fr"))).toMatch(/^Pas encore d’estimation/);
  });

  it("words why a location cannot be done, with its dates on the reader's calendar", () => {
    expect(
      reasonText(
        {
          code: "no_contributors_nearby",
          message: "…",
          params: { radius_km: 100, days: 30 },
        },
        en,
      ),
    ).toBe("No contributor has sent a photo within 100 km of here in the last 30 days, so nobody may be there to take it.");
    expect(
      reasonText(
        {
          code: "polar_night",
          message: "…",
          params: {
            time_of_day: "daylight",
            date: "2026-12-10",
            until: "2027-02-15",
          },
        },
        en,
      ),
    ).toBe("The sun does not rise here on Thu, 10 Dec 2026 (polar night), so the photos cannot be taken in daylight. It can next be done on Mon, 15 Feb 2027.");
    expect(
      reasonText(
        {
          code: "sun_never_in_window",
          message: "…",
          params: {
            pointer: "/recurring/time_window",
            time_of_day: "daylight",
            time_window: "22:00-23:30",
          },
        },
        en,
      ),
    ).toBe("The sun is never up here between 22:00–23:30.");
    expect(
      reasonText(
        {
          code: "no_window",
          message: "…",
          params: { days: 7, time_of_day: "evening" },
        },
        en,
      ),
    ).toBe("There is no evening here to take the photos in during the next 7 days.");
    expect(
      reasonText(
        {
          code: "not_on_weekday",
          message: "…",
          params: { pointer: "/recurring/day_of_week", day_of_week: 5 },
        },
        en,
      ),
    ).toBe("No Friday falls within the schedule here.");
  });

  it("keeps the service's English sentence for a code it has no words for", () => {
    expect(reasonText({ code: "something_new", message: "A new reason.", params: {} }, testWords("de", "de"))).toBe("A new reason.");
  });
});
