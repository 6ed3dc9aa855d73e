import { describe, expect, it } from "vitest";
import { describeDecodeError } from "./decode-error";

describe("describeDecodeError", () => {
  it("keeps the decoder's reason", () => {
    expect(describeDecodeError(new Error("VipsJpeg: premature end of data"))).toBe("premature end of data");
  });

  it("never shows a server path", () => {
    const text = describeDecodeError(new Error("Input file is missing: /srv/photo-missions/.data/photos/org_1/mission_2/img_3/original.jpg"));
    expect(text).not.toMatch(/\//);
    expect(text).not.toMatch(/original\.jpg|photos|srv/);
    expect(text).toBe("Input file is missing");
  });

  it("removes a path in the middle of a message and keeps the rest", () => {
    const text = describeDecodeError(new Error('VipsForeignLoad: "/tmp/x/original.jpg" is not a known file format\nmore'));
    expect(text).not.toContain("/tmp");
    expect(text).toContain("is not a known file format");
  });

  it("says something for a non-error", () => {
    expect(describeDecodeError("boom")).toBe("unknown error");
  });
});
