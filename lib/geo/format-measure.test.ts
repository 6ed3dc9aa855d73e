import { describe, expect, it } from "vitest";
import { formatAreaIn, formatDistanceIn } from "./format-measure";

describe("formatAreaIn", () => {
  it("writes metric areas in the reader's digits and units", () => {
    expect(formatAreaIn(950.4, "en-GB")).toBe("950\u00a0m²");
    expect(formatAreaIn(9_999, "de")).toBe("9.999\u00a0m²");
    expect(formatAreaIn(123_456, "en-GB")).toBe("12.3 ha");
    expect(formatAreaIn(3_254_000, "de")).toBe("3,25\u00a0km²");
    expect(formatAreaIn(2_500_000_000, "fr")).toBe("2\u202f500\u00a0km²");
    expect(formatAreaIn(-5, "en-GB")).toBe("0\u00a0m²");
  });

  it("uses acres and square miles where the reader's region does", () => {
    expect(formatAreaIn(123_456, "en-GB", "en-US")).toBe("30.5 ac");
    expect(formatAreaIn(25_899_881, "en-GB", "en-US")).toBe("10\u00a0mi²");
  });
});

describe("formatDistanceIn", () => {
  it("rounds metres and kilometres in the reader's locale", () => {
    expect(formatDistanceIn(0.2, "en-GB")).toBe("1 m");
    expect(formatDistanceIn(149.6, "en-GB")).toBe("150 m");
    expect(formatDistanceIn(1_234, "de")).toBe("1,2 km");
    expect(formatDistanceIn(35_400, "en-GB")).toBe("35 km");
  });

  it("uses feet and miles in the US", () => {
    expect(formatDistanceIn(30, "en-GB", "en-US")).toBe("98 ft");
    expect(formatDistanceIn(3_000, "en-GB", "en-US")).toBe("1.9 mi");
  });
});
