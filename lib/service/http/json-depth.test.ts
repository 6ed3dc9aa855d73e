import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, jsonNestsDeeperThan } from "./json-depth";

const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}[]${"}".repeat(depth - 1)}`;

describe("jsonNestsDeeperThan", () => {
  it("allows nesting up to the cap and refuses one level more", () => {
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestsDeeperThan("[".repeat(100_000))).toBe(true);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ title: "[[[[{{{{".repeat(100), note: 'a \\" [[[[ "'.repeat(50) });
    expect(jsonNestsDeeperThan(text, 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: ["\\", [["x"]]] }), 3)).toBe(true);
  });

  it("scans a deep body without recursion", () => {
    expect(jsonNestsDeeperThan(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`)).toBe(true);
  });
});
