import { describe, expect, it } from "vitest";
import { pressTool } from "./draw-toolbar";

describe("pressTool", () => {
  it("keeps the active drawing tool drawing when it is pressed again", () => {
    expect(pressTool("polygon", "polygon")).toBe("polygon");
    expect(pressTool("rectangle", "rectangle")).toBe("rectangle");
  });

  it("switches to another tool, and leaves editing when Edit is pressed again", () => {
    expect(pressTool("polygon", "rectangle")).toBe("rectangle");
    expect(pressTool("idle", "polygon")).toBe("polygon");
    expect(pressTool("edit", "edit")).toBe("idle");
  });
});
