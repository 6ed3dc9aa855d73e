import { describe, expect, it } from "vitest";
import { parseWakePayload } from "./wake-payload";

describe("parseWakePayload", () => {
  it("names the queues a notification concerns", () => {
    expect(parseWakePayload("webhooks")).toEqual(["webhooks"]);
    expect(parseWakePayload("qa,webhooks")).toEqual(["qa", "webhooks"]);
  });

  it("reads an empty payload as all queues (an empty list wakes every worker)", () => {
    expect(parseWakePayload("")).toEqual([]);
  });

  it("ignores names it does not know", () => {
    expect(parseWakePayload("webhooks,drop table,orders")).toEqual(["webhooks", "orders"]);
  });
});
