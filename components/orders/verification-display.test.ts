import { describe, expect, it } from "vitest";
import { checkViews, verdictOf } from "./verification-display";

describe("verdictOf", () => {
  it("never shows a not-evaluated check as passed, whatever its flag says", () => {
    expect(verdictOf({ status: "not_evaluated", passed: true, score: 1 })).toBe("not_evaluated");
    expect(verdictOf({ status: "passed", passed: true, score: 1 })).toBe("passed");
    expect(verdictOf({ status: "passed", passed: false, score: 1 })).toBe("failed");
    expect(verdictOf({ passed: true, score: 0.9 })).toBe("passed");
  });
});

describe("checkViews", () => {
  it("orders the checks and words the measured value beside the threshold", () => {
    const views = checkViews({
      obstruction: { status: "not_evaluated", passed: false, score: 0, value: null, threshold: null, message: "No analyser is configured." },
      angle_match: { status: "passed", passed: true, score: 0.97, value: 2.1, threshold: 35, message: "Facing the target." },
      location_match: { status: "passed", passed: true, score: 0.76, value: 30, threshold: 65, message: "Taken 30 m from Duomo." },
    });
    expect(views.map((v) => v.check)).toEqual(["location_match", "angle_match", "obstruction"]);
    expect(views[0]).toMatchObject({ verdict: "passed", measured: "30 m away", threshold: "65 m allowed", score: 0.76 });
    expect(views[1]).toMatchObject({ measured: "2.1° off", threshold: "±35°" });
    expect(views[2]).toMatchObject({ verdict: "not_evaluated", score: null, measured: null, message: "Not checked for this order." });
    // The same figures as catalogue keys, for a page in another language.
    expect(views[0]?.figures).toEqual({ measured: { key: "metresAway", values: { value: 30 } }, threshold: { key: "metresAllowed", values: { value: 65 } } });
    expect(views[1]?.figures.measured).toEqual({ key: "degreesOff", values: { value: 2.1 } });
    expect(views[2]?.figures).toEqual({ measured: null, threshold: null });
  });

  it("words an obstruction's share and a crowd's count as figures, not as the API's English", () => {
    const [obstruction, crowd] = checkViews({
      obstruction: {
        status: "passed",
        passed: true,
        score: 0.86,
        value: 0.14,
        threshold: "at most 30 % of the frame covered",
        code: "obstruction.covers_within",
        params: { share_pct: 14, allowed_pct: 30 },
      },
      minimum_crowd: {
        status: "passed",
        passed: true,
        score: 1,
        value: "2 people (sparse)",
        threshold: "low: at least 1 person (sparse)",
        code: "minimum_crowd.enough",
        params: { people: 2, level: "sparse", ordered: "low", min: 1 },
      },
    });
    expect(obstruction?.figures).toEqual({
      measured: { key: "shareCovered", values: { share: 0.14 } },
      threshold: { key: "shareAllowed", values: { share: 0.3 } },
    });
    expect(crowd?.figures).toEqual({ measured: { key: "people", values: { count: 2 } }, threshold: null });
  });

  it("tells the reader a check was not evaluated, without the operator's configuration hint", () => {
    const [brand] = checkViews({
      brand_match: {
        status: "not_evaluated",
        passed: false,
        score: 0,
        value: null,
        threshold: null,
        message: "The ocr analyser reads text only, so whether the sign is visible was not checked (configure ANALYSER_URL for it).",
      },
    });
    expect(brand?.message).toBe("Not checked for this order.");
    expect(JSON.stringify(brand)).not.toContain("ANALYSER_URL");
  });
});
