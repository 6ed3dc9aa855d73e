import { describe, expect, it } from "vitest";
import { nameClaim, ZOOMER_NAME_CLAIM_MAX } from "./issue-token";

describe("nameClaim", () => {
  it("keeps a short name as it is, trimmed", () => {
    expect(nameClaim("  Ana  ")).toBe("Ana");
    expect(nameClaim("محمد")).toBe("محمد");
  });

  it("cuts a long name to the limit with an ellipsis, never inside a grapheme", () => {
    expect(nameClaim("a".repeat(ZOOMER_NAME_CLAIM_MAX))).toBe("a".repeat(ZOOMER_NAME_CLAIM_MAX));
    expect(nameClaim("a".repeat(ZOOMER_NAME_CLAIM_MAX + 1))).toBe(`${"a".repeat(ZOOMER_NAME_CLAIM_MAX - 1)}…`);
    const family = "👨‍👩‍👧";
    const cut = nameClaim(family.repeat(50));
    expect(cut).toBe(`${family.repeat(ZOOMER_NAME_CLAIM_MAX - 1)}…`);
    expect([...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(cut)]).toHaveLength(ZOOMER_NAME_CLAIM_MAX);
  });

  it("does not leave a space before the ellipsis", () => {
    expect(nameClaim(`${"a".repeat(ZOOMER_NAME_CLAIM_MAX - 2)} bcdef`)).toBe(`${"a".repeat(ZOOMER_NAME_CLAIM_MAX - 2)}…`);
  });
});
