import { describe, expect, it } from "vitest";
import { pickEncoding } from "./content-encoding";

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip, br;q=0")).toBe("gzip");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(null)).toBe("identity");
  });
});
