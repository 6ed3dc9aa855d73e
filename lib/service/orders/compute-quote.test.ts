import { describe, expect, it } from "vitest";
import { computeQuote, mergeRequirements, unitPriceCents, type QuoteInput } from "./compute-quote";
import { DEFAULT_PRICE_LIST } from "./price-list";

const base: QuoteInput = {
  category: "restaurant_ambiance",
  locations: [
    { location_id: "loc_a", name: "A", requirements: { angles: ["interior", "entrance"], time_of_day: "evening" } },
    { location_id: "loc_b", name: "B", requirements: { angles: ["interior"] } },
  ],
  recurring: null,
  plan: "developer",
  prices: DEFAULT_PRICE_LIST,
  priceListUpdatedAt: new Date("2026-11-01T00:00:00Z"),
  photosUsedThisMonth: 40,
  now: new Date("2026-11-24T10:00:00Z"),
};

describe("mergeRequirements", () => {
  it("lets the location's own values win and keeps the order-wide rest", () => {
    expect(mergeRequirements({ angles: ["front"], time_of_day: "daylight", brand_match: "Acme" }, { angles: ["interior"] })).toEqual({
      angles: ["interior"],
      time_of_day: "daylight",
      brand_match: "Acme",
    });
    expect(mergeRequirements(undefined, undefined)).toEqual({});
  });
});

describe("unitPriceCents", () => {
  it("adds the time-of-day surcharge, rounded, and the analysis surcharges", () => {
    expect(unitPriceCents(DEFAULT_PRICE_LIST, "restaurant_ambiance", {})).toBe(600);
    expect(unitPriceCents(DEFAULT_PRICE_LIST, "restaurant_ambiance", { time_of_day: "evening" })).toBe(750);
    expect(unitPriceCents(DEFAULT_PRICE_LIST, "restaurant_ambiance", { time_of_day: "midday", minimum_crowd: "moderate", brand_match: "X" })).toBe(
      660 + 100 + 150,
    );
    const odd = { ...DEFAULT_PRICE_LIST, per_photo_cents: { ...DEFAULT_PRICE_LIST.per_photo_cents, cultural_exterior: 333 } };
    expect(unitPriceCents(odd, "cultural_exterior", { time_of_day: "midday" })).toBe(366); // 366.3 → 366
  });
});

describe("computeQuote", () => {
  it("prices a one-off order per location and counts the quota", () => {
    const quote = computeQuote(base);
    expect(quote.line_items).toEqual([
      { location_id: "loc_a", name: "A", angles: ["interior", "entrance"], time_of_day: "evening", quantity: 2, unit_amount_cents: 750, amount_cents: 1500 },
      { location_id: "loc_b", name: "B", angles: ["interior"], time_of_day: null, quantity: 1, unit_amount_cents: 600, amount_cents: 600 },
    ]);
    expect(quote).toMatchObject({ billing: "one_off", photos_per_cycle: 3, subtotal_cents: 2100, discount: null, total_cents: 2100, schedule: null });
    expect(quote.quota).toEqual({ photos_per_month: 1000, used_this_month: 40, remaining_this_month: 960 });
  });

  it.each([
    ["weekly", { enabled: true, frequency: "weekly", day_of_week: 5 }, 15, 315],
    ["monthly", { enabled: true, frequency: "monthly", deliver_before: "15th" }, 10, 210],
    ["daily", { enabled: true, frequency: "daily" }, 0, 0],
  ] as const)("applies the %s discount", (_name, recurring, percent, amount) => {
    const quote = computeQuote({ ...base, recurring: { ...recurring } });
    expect(quote.billing).toBe("per_cycle");
    expect(quote.discount?.percent ?? 0).toBe(percent);
    expect(quote.discount?.amount_cents ?? 0).toBe(amount);
    expect(quote.total_cents).toBe(2100 - amount);
    expect(quote.schedule).toEqual(expect.any(String));
  });

  it("treats recurring.enabled false as one-off", () => {
    expect(computeQuote({ ...base, recurring: { enabled: false, frequency: "weekly" } })).toMatchObject({
      billing: "one_off",
      discount: null,
      total_cents: 2100,
    });
  });

  it("gives no discount to event-night orders without a frequency", () => {
    const quote = computeQuote({ ...base, recurring: { enabled: true, event_nights_only: true, event_dates: ["2027-06-12"] } });
    expect(quote).toMatchObject({ billing: "per_cycle", discount: null, total_cents: 2100 });
  });

  it("reports an unlimited quota as null and a spent one as 0 left", () => {
    expect(computeQuote({ ...base, plan: "enterprise" }).quota).toEqual({ photos_per_month: null, used_this_month: 40, remaining_this_month: null });
    expect(computeQuote({ ...base, photosUsedThisMonth: 1200 }).quota.remaining_this_month).toBe(0);
  });
});
