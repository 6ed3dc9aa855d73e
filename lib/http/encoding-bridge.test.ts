import { createServer, get, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bridgeEncoding, ENCODED_BODY_HEADER, PASS_ENCODING_HEADER } from "./encoding-bridge";

const BODY = JSON.stringify({ type: "FeatureCollection", features: [] });
let server: Server;
let url: string;

// Stands in for Next: answers gzip only when asked to through PASS_ENCODING_HEADER, naming the
// coding in ENCODED_BODY_HEADER (one header set, one appended, as Next's response writer does).
beforeAll(async () => {
  server = createServer((req, res) => {
    bridgeEncoding(req, res);
    const pass = req.headers[PASS_ENCODING_HEADER];
    res.setHeader("x-saw-pass", String(pass ?? "none"));
    if (pass === "gzip") {
      if (req.url === "/append") res.appendHeader(ENCODED_BODY_HEADER, "gzip");
      else res.setHeader(ENCODED_BODY_HEADER, "gzip");
      res.end(gzipSync(BODY));
    } else res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function request(path: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

describe("bridgeEncoding", () => {
  it("lets a handler send gzip it did not compress itself, labelled as Content-Encoding", async () => {
    for (const path of ["/set", "/append"]) {
      const res = await request(path, { "accept-encoding": "gzip, br" });
      expect(res.headers["x-saw-pass"]).toBe("gzip");
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(res.headers[ENCODED_BODY_HEADER]).toBeUndefined();
      expect(gunzipSync(res.body).toString()).toBe(BODY);
    }
  });

  it("sends the body as it is to a client that does not take gzip, whatever header it sends itself", async () => {
    const res = await request("/set", { "accept-encoding": "br, gzip;q=0", [PASS_ENCODING_HEADER]: "gzip" });
    expect(res.headers["x-saw-pass"]).toBe("none");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(BODY);
  });
});
