import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { parseRange, pmtilesResponse } from "./serve-pmtiles";

describe("parseRange", () => {
  it("reads single byte ranges against the file size", () => {
    expect(parseRange("bytes=0-126", 1000)).toEqual([0, 126]);
    expect(parseRange("bytes=900-", 1000)).toEqual([900, 999]);
    expect(parseRange("bytes=-100", 1000)).toEqual([900, 999]);
    expect(parseRange("bytes=990-2000", 1000)).toEqual([990, 999]);
  });

  it("tells an unsatisfiable range from none at all", () => {
    expect(parseRange("bytes=1000-1001", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=5-1", 1000)).toBe("unsatisfiable");
    expect(parseRange(null, 1000)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
  });
});

describe("pmtilesResponse from a file", () => {
  const dir = mkdtempSync(join(tmpdir(), "serve-pmtiles-"));
  const path = join(dir, "basemap.pmtiles");
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
  writeFileSync(path, bytes);
  const source = { kind: "file" as const, path };

  it("answers a range with 206, exactly those bytes, and what a cache needs", async () => {
    const res = await pmtilesResponse({ source, range: "bytes=100-199" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(res.headers.get("content-length")).toBe("100");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(100, 200));
  });

  it("sends the whole archive without a range, nothing for HEAD, and 416 past the end", async () => {
    const whole = await pmtilesResponse({ source, range: null });
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(1000);
    const head = await pmtilesResponse({ source, range: "bytes=0-9", method: "HEAD" });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
    expect(head.body).toBeNull();
    const past = await pmtilesResponse({ source, range: "bytes=1000-1010" });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */1000");
  });

  it("is 404 when no archive is configured or the file is missing", async () => {
    expect((await pmtilesResponse({ source: null, range: null })).status).toBe(404);
    expect((await pmtilesResponse({ source: { kind: "file", path: join(dir, "missing.pmtiles") }, range: "bytes=0-126" })).status).toBe(404);
  });
});
