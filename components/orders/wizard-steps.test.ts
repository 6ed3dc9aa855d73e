import { describe, expect, it } from "vitest";
import type { OrderDraftBody } from "@/lib/orders/draft";
import { describePointer, errorsOfStep, stepOfPointer, stepProblems } from "./wizard-steps";

const duomo = { location_id: "loc_a", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } };

describe("stepOfPointer", () => {
  it("sends each member's errors to the step where it is edited", () => {
    expect(stepOfPointer("/locations/3/coordinates/lat")).toBe("locations");
    expect(stepOfPointer("/locations")).toBe("locations");
    expect(stepOfPointer("/locations/0/requirements/angles")).toBe("what");
    expect(stepOfPointer("/requirements/angles/1")).toBe("what");
    expect(stepOfPointer("/category")).toBe("what");
    expect(stepOfPointer("/recurring/time_window")).toBe("when");
    expect(stepOfPointer("/recurring")).toBe("when");
    expect(stepOfPointer("/delivery/webhook_url")).toBe("delivery");
    expect(stepOfPointer("/")).toBe("review");
    expect(stepOfPointer("/locationsX")).toBe("review");
  });

  it("filters a step's errors", () => {
    expect(errorsOfStep({ "/delivery/webhook_url": ["unsafe"], "/category": ["x"] }, "delivery")).toEqual({ "/delivery/webhook_url": ["unsafe"] });
  });
});

describe("describePointer", () => {
  it("names the location by number and name", () => {
    expect(describePointer("/locations/0/coordinates/lat", [duomo])).toBe("Location 1 (Duomo), latitude");
    expect(describePointer("/delivery/webhook_url")).toBe("Webhook URL");
    expect(describePointer("/")).toBe("The order");
  });
});

describe("stepProblems", () => {
  it("asks for a location, a category and angles for every location", () => {
    expect(Object.keys(stepProblems({}, "locations"))).toEqual(["/locations"]);
    const body: OrderDraftBody = { locations: [duomo, { ...duomo, location_id: "loc_b", requirements: { angles: ["front"] } }] };
    expect(stepProblems(body, "what")).toEqual({
      "/category": ["Choose what kind of place this is."],
      "/locations/0/requirements/angles": ["Choose at least one angle for Duomo."],
    });
  });

  it("checks the recurrence and the webhook URL only when chosen", () => {
    expect(stepProblems({ recurring: { enabled: false } }, "when")).toEqual({});
    expect(Object.keys(stepProblems({ recurring: { enabled: true, frequency: "weekly" } }, "when"))).toEqual(["/recurring/day_of_week"]);
    expect(stepProblems({}, "delivery")).toEqual({});
    expect(stepProblems({ delivery: { webhook_url: "ftp://x" } }, "delivery")["/delivery/webhook_url"]).toEqual(["Enter a full http:// or https:// URL."]);
  });
});

