import { describe, expect, it } from "vitest";
import { pageTotal } from "./page-total";

describe("pageTotal", () => {
  const counted = (n: number) => {
    const calls: number[] = [];
    return { calls, count: () => (calls.push(n), Promise.resolve(n)) };
  };

  it("takes the total from a page that is not full, without counting", async () => {
    const c = counted(999);
    expect(await pageTotal(3, { page: 1, perPage: 5 }, c.count)).toBe(3);
    expect(await pageTotal(2, { page: 3, perPage: 5 }, c.count)).toBe(12);
    expect(await pageTotal(0, { page: 1, perPage: 5 }, c.count)).toBe(0);
    expect(c.calls).toEqual([]);
  });

  it("counts when the page is full or past the end", async () => {
    const c = counted(42);
    expect(await pageTotal(5, { page: 1, perPage: 5 }, c.count)).toBe(42);
    expect(await pageTotal(0, { page: 9, perPage: 5 }, c.count)).toBe(42);
    expect(c.calls).toHaveLength(2);
  });
});
