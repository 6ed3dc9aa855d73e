import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

describe("pmtilesResponse from a URL (an object store on loopback)", () => {
  const bytes = Uint8Array.from({ length: 500 }, (_, i) => (i * 7) % 256);
  const seen: (string | undefined)[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers.range);
      if (req.url !== "/europe.pmtiles") return void res.writeHead(404).end();
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (!range) return void res.writeHead(200, { "content-length": "500", etag: '"v1"' }).end(Buffer.from(bytes));
      const [start, end] = [Number(range[1]), Number(range[2])];
      res.writeHead(206, { "content-range": `bytes ${start}-${end}/500`, "content-length": String(end - start + 1), etag: '"v1"', "set-cookie": "tracker=1" });
      res.end(Buffer.from(bytes.slice(start, end + 1)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("forwards the range and passes the partial response through, without the store's other headers", async () => {
    const res = await pmtilesResponse({ source: { kind: "url", url: `${base}/europe.pmtiles` }, range: "bytes=10-19" });
    expect(seen.at(-1)).toBe("bytes=10-19");
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 10-19/500");
    expect(res.headers.get("etag")).toBe('"v1"');
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(10, 20));
  });

  it("is 404 for a missing archive and 502 when the store cannot be reached", async () => {
    expect((await pmtilesResponse({ source: { kind: "url", url: `${base}/missing.pmtiles` }, range: "bytes=0-126" })).status).toBe(404);
    const closed = await pmtilesResponse({ source: { kind: "url", url: "http://127.0.0.1:9/europe.pmtiles" }, range: "bytes=0-126" });
    expect(closed.status).toBe(502);
  });
});
