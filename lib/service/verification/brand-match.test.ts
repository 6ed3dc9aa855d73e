import { describe, expect, it } from "vitest";
import { brandMatch, BRAND_MATCH_MIN_SIMILARITY, normaliseForBrand } from "./brand-match";

describe("normaliseForBrand", () => {
  it("keeps letters and digits, upper case, without accents or spaces", () => {
    expect(normaliseForBrand("Caffè  Gilli — est. 1733")).toBe("CAFFEGILLIEST1733");
  });
});

describe("brandMatch", () => {
  it("finds the brand exactly inside a sign's text, across case, spaces and lines", () => {
    expect(brandMatch("OPEN DAILY\nGelateria dei\nNeri  ·  since 1980", "Gelateria dei Neri")).toEqual({ similarity: 1, found: "GELATERIADEINERI" });
  });

  it("forgives one misread letter in ten, and OCR's digit-for-letter swaps", () => {
    const oneWrong = brandMatch("GELATERlA", "Gelateria");
    expect(oneWrong.similarity).toBeCloseTo(1 - 1 / 9, 3);
    expect(oneWrong.similarity).toBeGreaterThanOrEqual(BRAND_MATCH_MIN_SIMILARITY);
    expect(brandMatch("G0LD 5TAR", "Gold Star").similarity).toBe(1);
  });

  it("does not find a different word of similar length", () => {
    const other = brandMatch("FARMACIA COMUNALE", "Gelateria");
    expect(other.similarity).toBeLessThan(BRAND_MATCH_MIN_SIMILARITY);
  });

  it("scores nothing read, or an empty brand, as 0 with nothing found", () => {
    expect(brandMatch("", "Gelateria")).toEqual({ similarity: 0, found: null });
    expect(brandMatch("~~ | ;", "Gelateria")).toEqual({ similarity: 0, found: null });
    expect(brandMatch("GELATERIA", "  ")).toEqual({ similarity: 0, found: null });
  });
});
