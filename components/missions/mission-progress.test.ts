import { describe, expect, it } from "vitest";
import { missionProgress } from "./mission-progress";

describe("missionProgress", () => {
  it("caps progress at the target and names the rest as extra", () => {
    expect(missionProgress({ approved_images: 68, required_images: 60, extra_images: 8 })).toMatchObject({
      counted: 60,
      extra: 8,
      label: "60 of 60 · 8 extra",
      short: "60/60 · 8 extra",
    });
    expect(missionProgress({ approved_images: 10, required_images: 6 })).toMatchObject({ counted: 6, extra: 4, label: "6 of 6 · 4 extra" });
  });

  it("says nothing about extras when there are none", () => {
    expect(missionProgress({ approved_images: 12, required_images: 40, extra_images: 0 })).toMatchObject({
      counted: 12,
      extra: 0,
      label: "12 of 40",
      short: "12/40",
    });
    expect(missionProgress({ approved_images: 25, required_images: 25, extra_images: 0 }).label).toBe("25 of 25");
  });
});
