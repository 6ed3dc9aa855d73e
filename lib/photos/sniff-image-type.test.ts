import { describe, expect, it } from "vitest";
import { sniffImageType } from "./sniff-image-type";

const bytes = (...values: number[]) => Uint8Array.from(values);
const withAscii = (prefix: number[], text: string) => Uint8Array.from([...prefix, ...[...text].map((c) => c.charCodeAt(0))]);

describe("sniffImageType", () => {
  it("recognises JPEG by its SOI marker", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe1, 0, 0))).toEqual({ kind: "jpeg", mime: "image/jpeg" });
  });

  it("recognises HEIC and HEIF brands", () => {
    expect(sniffImageType(withAscii([0, 0, 0, 24], "ftypheic"))).toEqual({ kind: "heif", mime: "image/heic" });
    expect(sniffImageType(withAscii([0, 0, 0, 24], "ftypmif1"))).toEqual({ kind: "heif", mime: "image/heif" });
  });

  it("names other image types so the error can say what was sent", () => {
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toEqual({ kind: "other", mime: "image/png" });
    expect(sniffImageType(withAscii([], "%PDF-1.7"))).toEqual({ kind: "other", mime: "application/pdf" });
    // A phone's videos: the same ISO layout as HEIC, other brands.
    expect(sniffImageType(withAscii([0, 0, 0, 20], "ftypqt  "))).toEqual({ kind: "other", mime: "video/quicktime" });
    expect(sniffImageType(withAscii([0, 0, 0, 24], "ftypisom"))).toEqual({ kind: "other", mime: "video/mp4" });
  });

  it("does not trust a JPEG name on other bytes", () => {
    expect(sniffImageType(withAscii([], "<html><script>"))).toEqual({ kind: "unknown" });
    expect(sniffImageType(bytes(0xff, 0xd8))).toEqual({ kind: "unknown" });
    expect(sniffImageType(bytes())).toEqual({ kind: "unknown" });
  });
});
