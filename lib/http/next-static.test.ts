import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { IMMUTABLE_CACHE_CONTROL } from "./content-encoding";
import { isNextStaticPath, nextStaticFile } from "./next-static";

const SCRIPT = "console.log('chunk');".repeat(200);
let root: string;
let staticDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "next-static-"));
  staticDir = join(root, "static");
  mkdirSync(join(staticDir, "chunks"), { recursive: true });
  writeFileSync(join(staticDir, "chunks/app.js"), SCRIPT);
  writeFileSync(join(staticDir, "chunks/app.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(join(staticDir, "chunks/app.js.gz"), gzipSync(SCRIPT));
  // Built by `next build` alone: no compressed copies.
  writeFileSync(join(staticDir, "chunks/plain.css"), "body{margin:0}");
  writeFileSync(join(staticDir, "chunks/font.woff2"), "wOF2");
  writeFileSync(join(root, "secret.js"), "outside the static directory");
});

const get = (url: string, acceptEncoding: string | null = "gzip, deflate, br, zstd", method = "GET") =>
  nextStaticFile({ method, url, acceptEncoding }, staticDir);

describe("nextStaticFile", () => {
  it("sends the brotli copy to a browser that takes brotli, cacheable for a year", async () => {
    const file = await get("/_next/static/chunks/app.js");
    expect(file?.headers).toMatchObject({
      "content-encoding": "br",
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": IMMUTABLE_CACHE_CONTROL,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff",
    });
    expect(file?.body && brotliDecompressSync(file.body).toString()).toBe(SCRIPT);
    expect(file?.headers["content-length"]).toBe(String(file?.body?.length));
  });

  it("sends the gzip copy when brotli is not accepted, and the file itself when nothing is", async () => {
    const gz = await get("/_next/static/chunks/app.js?dpl=1", "gzip, br;q=0");
    expect(gz?.headers["content-encoding"]).toBe("gzip");
    expect(gz?.body && gunzipSync(gz.body).toString()).toBe(SCRIPT);
    const plain = await get("/_next/static/chunks/app.js", null);
    expect(plain?.headers["content-encoding"]).toBeUndefined();
    expect(plain?.body?.toString()).toBe(SCRIPT);
  });

  it("answers HEAD with the headers only", async () => {
    const head = await get("/_next/static/chunks/app.js", "br", "HEAD");
    expect(head?.body).toBeNull();
    expect(Number(head?.headers["content-length"])).toBeGreaterThan(0);
  });

  it("leaves to Next a file without compressed copies, a kind it does not know, a missing file and other methods", async () => {
    expect(await get("/_next/static/chunks/plain.css")).toBeNull();
    expect((await get("/_next/static/chunks/plain.css", null))?.body?.toString()).toBe("body{margin:0}");
    expect(await get("/_next/static/chunks/font.woff2")).toBeNull();
    expect(await get("/_next/static/chunks/missing.js")).toBeNull();
    expect(await get("/_next/static/chunks/app.js", "br", "POST")).toBeNull();
  });

  it("does not remember a name that was not there (made-up names cannot fill its memory)", async () => {
    expect(await get("/_next/static/chunks/later.js")).toBeNull();
    writeFileSync(join(staticDir, "chunks/later.js.br"), brotliCompressSync("later"));
    const file = await get("/_next/static/chunks/later.js");
    expect(file?.body && brotliDecompressSync(file.body).toString()).toBe("later");
  });

  it("never reads outside the static directory", async () => {
    for (const url of [
      "/_next/static/%2e%2e/secret.js",
      "/_next/static/..%2fsecret.js",
      "/_next/static/%2Fetc%2Fpasswd.js",
      "/_next/static/chunks/app.js%00.js",
      "/_next/static/%E0%A4%A.js",
    ]) {
      expect(await get(url, null), url).toBeNull();
    }
  });
});

describe("isNextStaticPath", () => {
  it("matches Next's built files only", () => {
    expect(isNextStaticPath("/_next/static/chunks/app.js")).toBe(true);
    expect(isNextStaticPath("/_next/image?url=x")).toBe(false);
    expect(isNextStaticPath("/missions")).toBe(false);
  });
});
