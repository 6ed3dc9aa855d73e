import { describe, expect, it } from "vitest";
import { toCreateBody } from "./draft";

const duomo = { location_id: "loc_a", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } };
describe("toCreateBody", () => {
  it("drops empty members, a switched-off recurrence and members the frequency does not take", () => {
    expect(
      toCreateBody({
        client_reference: " q3 ",
        category: "cultural_exterior",
        description: "",
        locations: [duomo],
        requirements: { angles: ["front"], brand_match: " " },
        recurring: { enabled: false, frequency: "weekly" },
        delivery: { webhook_url: "" },
      }),
    ).toEqual({ client_reference: "q3", category: "cultural_exterior", locations: [duomo], requirements: { angles: ["front"] } });
    expect(
      toCreateBody({
        recurring: {
          enabled: true,
          frequency: "monthly",
          day_of_week: 5,
          deliver_before: "15th",
          season: "all_year",
          time_window: "18:00-21:00",
          pause_conditions: { weather_extreme: true },
        },
      }).recurring,
    ).toEqual({ enabled: true, frequency: "monthly", deliver_before: "15th", time_window: "18:00-21:00", pause_conditions: { weather_extreme: true } });
  });
});
