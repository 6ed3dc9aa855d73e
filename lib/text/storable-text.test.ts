import { describe, expect, it } from "vitest";
import { findUnstorableText, toStorableText, unstorableReason } from "./storable-text";

describe("unstorableReason", () => {
  it.each(["", "plain", "Ponte Vecchio — Firenze", "📷 emoji pair", "\t\n control characters other than NUL", "\uFFFD"])("accepts %j", (text) => {
    expect(unstorableReason(text)).toBeNull();
  });

  it.each([
    ["\u0000", /U\+0000/],
    ["a\u0000b", /U\+0000/],
    ["\uD800", /U\+D800/],
    ["x\uDBFF", /U\+DBFF/],
    ["\uDC00x", /U\+DC00/],
    ["\uDC00\uD800", /U\+DC00/], // a pair in the wrong order is two lone halves
    ["ok 📷 then \uD83D", /U\+D83D/],
  ])("refuses %j", (text, reason) => {
    expect(unstorableReason(text)).toMatch(reason);
  });
});

describe("findUnstorableText", () => {
  it("finds nothing in clean values, numbers, booleans and null", () => {
    expect(findUnstorableText({ a: "x", b: [1, true, null, { c: "📷" }] })).toBeNull();
  });

  it("gives the path of the first bad string, through arrays and objects", () => {
    expect(findUnstorableText({ a: "x", b: [{ c: "ok" }, { c: "bad\u0000" }] })).toMatchObject({ path: ["b", 1, "c"] });
  });

  it("checks member names too", () => {
    const found = findUnstorableText({ ok: 1, ["k\uD800"]: 2 });
    expect(found?.path).toEqual(["k\uD800"]);
    expect(found?.reason).toMatch(/^The member name contains U\+D800/);
  });

  it("checks a bare string at the root", () => {
    expect(findUnstorableText("\u0000")).toMatchObject({ path: [] });
  });
});

describe("toStorableText", () => {
  it("drops NUL and replaces lone surrogates, keeping pairs", () => {
    expect(toStorableText("Ca\u0000non\u0000\u0000")).toBe("Canon");
    expect(toStorableText("a\uD800b📷\uDC00")).toBe("a\uFFFDb📷\uFFFD");
    expect(unstorableReason(toStorableText("\uDC00\uD800\u0000"))).toBeNull();
  });
});
