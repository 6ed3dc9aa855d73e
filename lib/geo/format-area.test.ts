import { describe, expect, it } from "vitest";
import { formatArea } from "./format-area";

describe("formatArea", () => {
  it("picks m², ha or km² by size", () => {
    expect(formatArea(950)).toBe("950 m²");
    expect(formatArea(12_345)).toBe("1.23 ha");
    expect(formatArea(2_500_000_000)).toBe("2,500 km²");
  });
  it("shows a dash for nonsense", () => {
    expect(formatArea(Number.NaN)).toBe("—");
    expect(formatArea(-1)).toBe("—");
  });
});
