import { describe, expect, it } from "vitest";
import { describePointer } from "./describe-pointer";

describe("describePointer", () => {
  it("names vertices one-based, on the outline or a hole", () => {
    expect(describePointer("/bounds/coordinates/0/5")).toBe("Vertex 6: ");
    expect(describePointer("/bounds/coordinates/2/0")).toBe("Hole 2, vertex 1: ");
    expect(describePointer("/bounds/coordinates/0")).toBe("Outline: ");
  });
  it("says nothing extra for other pointers", () => {
    expect(describePointer("/bounds")).toBe("");
    expect(describePointer("/title")).toBe("");
  });
});
