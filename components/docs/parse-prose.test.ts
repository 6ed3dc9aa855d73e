import { describe, expect, it } from "vitest";
import { inlines, parseProse } from "./parse-prose";

describe("parseProse", () => {
  it("splits code spans out of text", () => {
    expect(inlines("Emits `mission.created`.")).toEqual([
      { code: false, text: "Emits " },
      { code: true, text: "mission.created" },
      { code: false, text: "." },
    ]);
  });

  it("reads paragraphs and a pipe table, even when the text goes on right under the table", () => {
    const blocks = parseProse("Creates an order. States:\n\n| From | To |\n|---|---|\n| — | `pending` |\n| a | b |\nAny other change answers 409.");
    expect(blocks.map((b) => b.kind)).toEqual(["paragraph", "table", "paragraph"]);
    const table = blocks[1];
    if (table?.kind !== "table") throw new Error("no table");
    expect(table.head.map((cell) => cell.map((i) => i.text).join(""))).toEqual(["From", "To"]);
    expect(table.rows).toHaveLength(2);
    expect(table.rows[0]?.[1]).toEqual([{ code: true, text: "pending" }]);
  });
});
