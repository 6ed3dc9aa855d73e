import { describe, expect, it } from "vitest";
import { createId } from "./create-id";
import { ID_PREFIXES, idSchema } from "./prefixes";

describe("idSchema", () => {
  it("accepts what createId mints for its kind and nothing else", () => {
    const orders = idSchema(ID_PREFIXES.order);
    expect(orders.safeParse(createId("order")).success).toBe(true);
    expect(orders.safeParse(createId("draft")).success).toBe(false);
    expect(orders.safeParse("ord_").success).toBe(false);
    expect(orders.safeParse(`${createId("order")}x`).success).toBe(false);
    expect(orders.safeParse("ord_../../admin").success).toBe(false);
  });

  it("names the kind in its message", () => {
    const result = idSchema(ID_PREFIXES.draft, "draft id").safeParse("nope");
    expect(result.success ? "" : result.error.issues[0]?.message).toBe("Not a valid draft id.");
  });
});
