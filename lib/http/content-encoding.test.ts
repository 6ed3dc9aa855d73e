import { describe, expect, it } from "vitest";
import { acceptedEncodings, pickEncoding } from "./content-encoding";

describe("pickEncoding", () => {
  it("prefers brotli, then gzip, and honours q=0", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip, br;q=0")).toBe("gzip");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(null)).toBe("identity");
  });
});

describe("acceptedEncodings", () => {
  it("lists the codings offered, without those refused", () => {
    expect([...acceptedEncodings("gzip;q=0.8, BR, deflate;q=0")]).toEqual(["gzip", "br"]);
    expect(acceptedEncodings(undefined).has("gzip")).toBe(false);
  });
});
