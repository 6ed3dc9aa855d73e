import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { OrderDraftBody } from "@/lib/orders/draft";
import type { Messages } from "@/lib/i18n/pseudo";
import deJson from "@/messages/de/wizard.json";
import enJson from "@/messages/en/wizard.json";
import { describePointer, errorsOfStep, stepOfPointer, stepProblems, wordProblems, type StepProblem } from "./wizard-steps";

const en: Messages = enJson;
const de: Messages = deJson;
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
  it("names the location by number and name, and the member", () => {
    expect(describePointer("/locations/0/coordinates/lat", [duomo])).toEqual([
      { kind: "location", number: 1, name: "Duomo" },
      { kind: "member", member: "lat" },
    ]);
    expect(describePointer("/recurring/event_dates/2")).toEqual([
      { kind: "member", member: "event_dates" },
      { kind: "item", number: 3 },
    ]);
    expect(describePointer("/delivery/webhook_url")).toEqual([{ kind: "member", member: "webhook_url" }]);
    expect(describePointer("/")).toEqual([]);
  });
});

describe("stepProblems", () => {
  it("words its codes from the catalogue, in the reader's language", () => {
    const body: OrderDraftBody = { locations: [{ ...duomo, name: "" }] };
    const problems = stepProblems(body, "review");
    type Words = (key: string, values?: Record<string, string | number>) => string;
    // The catalogue's keys are only known at run time here.
    const english = createTranslator({ locale: "en", messages: { wizard: en }, namespace: "wizard.problems" }) as unknown as Words;
    const german = createTranslator({ locale: "de", messages: { wizard: de }, namespace: "wizard.problems" }) as unknown as Words;
    const say = (t: Words) => (p: StepProblem) =>
      p.code === "noAnglesFor" ? t(p.code, { location: p.location || t("locationNumber", { number: p.number }) }) : t(p.code);
    expect(wordProblems(problems, say(english))).toEqual({
      "/locations/0/name": ["Name the location."],
      "/category": ["Choose what kind of place this is."],
      "/locations/0/requirements/angles": ["Choose at least one angle for location 1."],
    });
    expect(wordProblems(problems, say(german))["/locations/0/name"]).toEqual(["Benennen Sie den Ort."]);
  });

  it("asks for a location, a category and angles for every location", () => {
    expect(Object.keys(stepProblems({}, "locations"))).toEqual(["/locations"]);
    const body: OrderDraftBody = { locations: [duomo, { ...duomo, location_id: "loc_b", requirements: { angles: ["front"] } }] };
    expect(stepProblems(body, "what")).toEqual({
      "/category": [{ code: "noCategory" }],
      "/locations/0/requirements/angles": [{ code: "noAnglesFor", location: "Duomo", number: 1 }],
    });
  });

  it("checks the recurrence and the webhook URL only when chosen", () => {
    expect(stepProblems({ recurring: { enabled: false } }, "when")).toEqual({});
    expect(Object.keys(stepProblems({ recurring: { enabled: true, frequency: "weekly" } }, "when"))).toEqual(["/recurring/day_of_week"]);
    expect(stepProblems({}, "delivery")).toEqual({});
    expect(stepProblems({ delivery: { webhook_url: "ftp://x" } }, "delivery")["/delivery/webhook_url"]).toEqual([{ code: "webhookUrlNotHttp" }]);
  });
});
