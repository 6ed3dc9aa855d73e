import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isSameOriginPost, staticSecurityHeaders } from "./security-headers";

const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0] ?? "", d.split(" ").slice(1)]));

describe("contentSecurityPolicy", () => {
  it("allows scripts only by nonce, never inline or eval in production, and refuses framing", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc123", development: false, https: false }));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("worker-src")).toEqual(["'self'", "blob:"]);
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
  });

  it("names no other origin unless the basemaps need one, and then only those", () => {
    const plain = contentSecurityPolicy({ nonce: "n", development: false, https: false });
    expect(plain).not.toMatch(/https?:\/\//);
    const mapOrigins = ["https://tiles.example.org", "https://imagery.example.net"];
    const withMap = directives(contentSecurityPolicy({ nonce: "n", development: false, https: true, mapOrigins }));
    expect(withMap.get("connect-src")).toEqual(["'self'", ...mapOrigins]);
    expect(withMap.get("img-src")).toEqual(["'self'", "data:", "blob:", ...mapOrigins]);
    expect(withMap.get("script-src")?.join(" ")).not.toContain("tiles.example.org");
    expect(withMap.has("upgrade-insecure-requests")).toBe(true);
  });

  it("allows photos from the CDN's origin when CDN_URL puts it on another host", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "n", development: false, https: true, cdnOrigin: "https://photos.example.net" }));
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://photos.example.net"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
  });

  it("lets next dev evaluate code (its overlay needs it), and only next dev", () => {
    expect(contentSecurityPolicy({ nonce: "n", development: true, https: false })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: "n", development: false, https: false })).not.toContain("'unsafe-eval'");
  });
});

describe("staticSecurityHeaders", () => {
  it("sends HSTS over https only", () => {
    expect(staticSecurityHeaders({ https: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}/);
    expect(staticSecurityHeaders({ https: false })).not.toHaveProperty("Strict-Transport-Security");
    expect(staticSecurityHeaders({ https: false })).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
  });
});

describe("isSameOriginPost", () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  it("accepts our public origin and the host the request was sent to", () => {
    expect(isSameOriginPost(headers({ origin: "https://app.example", host: "internal:3000" }), "https://app.example", { trustProxy: false })).toBe(true);
    expect(isSameOriginPost(headers({ origin: "http://localhost:3210", host: "localhost:3210" }), "https://app.example", { trustProxy: false })).toBe(true);
  });
  it("refuses another origin, and a malformed one", () => {
    expect(isSameOriginPost(headers({ origin: "https://attacker.example", host: "app.example" }), "https://app.example", { trustProxy: false })).toBe(false);
    expect(isSameOriginPost(headers({ origin: "null", host: "app.example" }), "https://app.example", { trustProxy: false })).toBe(false);
  });
  it("believes X-Forwarded-Host only from a trusted proxy", () => {
    const forged = headers({ origin: "https://attacker.example", host: "127.0.0.1:3000", "x-forwarded-host": "attacker.example" });
    expect(isSameOriginPost(forged, "https://app.example", { trustProxy: false })).toBe(false);
    expect(isSameOriginPost(forged, "https://app.example", { trustProxy: true })).toBe(true);
  });
});
