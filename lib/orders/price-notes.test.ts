import { describe, expect, it } from "vitest";
import { analysisSurcharge, recurringDiscounts, timeOfDaySurcharge, type PriceNotesInput } from "./price-notes";

const prices: PriceNotesInput = {
  currency: "EUR",
  time_of_day_surcharge_percent: { daylight: 0, midday: 10, evening: 25 },
  analysis_surcharge_cents: { minimum_crowd: 100, brand_match: 0 },
  recurring_discount_percent: { daily: 0, weekly: 15, monthly: 10 },
};

describe("price notes", () => {
  it("follow the operator's price list, not fixed words", () => {
    expect(timeOfDaySurcharge("midday", prices)).toBe("+10 %");
    expect(timeOfDaySurcharge("evening", { ...prices, time_of_day_surcharge_percent: { daylight: 0, midday: 10, evening: 30 } })).toBe("+30 %");
    expect(timeOfDaySurcharge("daylight", prices)).toBeNull();
    expect(analysisSurcharge("minimum_crowd", prices)).toBe("+€1.00 per photo");
    expect(analysisSurcharge("minimum_crowd", { ...prices, currency: "USD" })).toBe("+US$1.00 per photo");
    expect(analysisSurcharge("brand_match", prices)).toBeNull();
    expect(recurringDiscounts(prices)).toBe("10 % off monthly, 15 % off weekly");
    expect(recurringDiscounts({ ...prices, recurring_discount_percent: { daily: 5, weekly: 0, monthly: 0 } })).toBe("5 % off daily");
    expect(recurringDiscounts({ ...prices, recurring_discount_percent: { daily: 0, weekly: 0, monthly: 0 } })).toBeNull();
  });
});
