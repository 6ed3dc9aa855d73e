import { describe, expect, it } from "vitest";
import { DEFAULT_CALLBACK_PATH, safeCallbackPath, safeCallbackUrl, sameOriginPath, signInPath } from "./callback-url";

const ORIGIN = "http://localhost:3000";

// Each of these, handed to a browser as a Location (or to router.replace), leaves the site, runs
// script, or may do so once something down the line decodes it.
const HOSTILE: [string, string][] = [
  ["backslash after the slash", "/\\evil.example/phish"],
  ["slash, backslash, slash", "/\\/evil.example/phish"],
  ["backslash, slash", "\\/evil.example"],
  ["two backslashes", "\\\\evil.example"],
  ["protocol-relative", "//evil.example/phish"],
  ["three slashes", "///evil.example"],
  ["tab between the slashes", "/\t/evil.example/phish"],
  ["leading tab", "\t//evil.example"],
  ["newline between the slashes", "/\n/evil.example"],
  ["carriage return between the slashes", "/\r/evil.example"],
  ["leading space", " //evil.example"],
  ["encoded backslash", "/%5Cevil.example"],
  ["encoded backslash, lower case", "/%5cevil.example"],
  ["encoded slashes", "/%2F%2Fevil.example"],
  ["one encoded slash", "/%2Fevil.example"],
  ["double-encoded slashes", "/%252F%252Fevil.example"],
  ["encoded tab", "/%09/evil.example"],
  ["encoded newline", "/%0A/evil.example"],
  ["encoded NUL", "/missions%00"],
  ["malformed percent-encoding", "/missions%E0%A4%A"],
  ["dot segments that normalise to //", "/a/..//evil.example"],
  ["dot segments after the origin", "http://localhost:3000/a/..//evil.example"],
  ["absolute URL on a port that is a host", "http://localhost:3000.evil.example/"],
  ["absolute URL on another host", "https://evil.example/"],
  ["same host, other scheme", "https://localhost:3000/missions"],
  ["same host, other port", "http://localhost:3001/missions"],
  ["userinfo that hides the host", "http://localhost:3000@evil.example/"],
  ["userinfo on our own origin", "http://user:pw@localhost:3000/missions"],
  ["absolute path then two slashes", "http://localhost:3000//evil.example"],
  ["javascript: URL", "javascript:alert(document.domain)"],
  ["javascript: URL with a tab", "java\tscript:alert(1)"],
  ["data: URL", "data:text/html,<script>alert(1)</script>"],
  ["relative without a slash", "evil.example/phish"],
  ["query only", "?next=//evil.example"],
  ["fragment only", "#//evil.example"],
  ["fullwidth solidi", "\uFF0F\uFF0Fevil.example"],
  ["zero-width space between the slashes", "/\u200B/evil.example"],
  ["byte-order mark first", "\uFEFF//evil.example"],
  ["line separator", "/\u2028/evil.example"],
  ["encoded line separator", "/%E2%80%A8/evil.example"],
  ["right-to-left override", "/\u202Eelpmaxe.live//"],
  ["ideographic space", "/\u3000/evil.example"],
  ["empty", ""],
  ["too long", `/${"a".repeat(2048)}`],
];

const SAFE: [string, string][] = [
  ["/missions", "/missions"],
  ["/missions/mis_01HZX", "/missions/mis_01HZX"],
  ["/orders/new?draft=ord_1#map", "/orders/new?draft=ord_1#map"],
  ["/orders?q=a%20b", "/orders?q=a%20b"],
  ["/", "/"],
  ["http://localhost:3000/settings", "/settings"],
  ["/a/../missions", "/missions"],
  ["/città", "/citt%C3%A0"],
];

describe("sameOriginPath", () => {
  it.each(HOSTILE)("refuses %s", (_name, value) => {
    expect(sameOriginPath(value, ORIGIN)).toBeNull();
    expect(safeCallbackPath(value, ORIGIN)).toBe(DEFAULT_CALLBACK_PATH);
  });

  it.each(SAFE)("accepts %s", (value, path) => {
    expect(sameOriginPath(value, ORIGIN)).toBe(path);
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 42, ["/missions"], { href: "/missions" }]) expect(sameOriginPath(value, ORIGIN)).toBeNull();
  });

  it("judges by the public origin, not by what the value claims", () => {
    expect(sameOriginPath("https://photos.example.org/missions", "https://photos.example.org")).toBe("/missions");
    expect(sameOriginPath("http://photos.example.org/missions", "https://photos.example.org")).toBeNull();
    expect(sameOriginPath("https://photos.example.org.evil.example/missions", "https://photos.example.org")).toBeNull();
  });

  it("each accepted path, read by the browser against the origin, stays on it", () => {
    for (const [, value] of [...HOSTILE, ...SAFE]) {
      const path = safeCallbackPath(value, ORIGIN);
      expect(new URL(path, ORIGIN).origin, value).toBe(ORIGIN);
      expect(path.startsWith("/") && !path.startsWith("//") && !path.includes("\\"), value).toBe(true);
    }
  });
});

describe("safeCallbackUrl (next-auth's redirect)", () => {
  it("answers an absolute URL on the origin, the fallback for a hostile value", () => {
    expect(safeCallbackUrl("/orders", ORIGIN)).toBe("http://localhost:3000/orders");
    expect(safeCallbackUrl("http://localhost:3000.evil.example/", ORIGIN)).toBe("http://localhost:3000/missions");
    expect(safeCallbackUrl("/\\evil.example/phish", ORIGIN, "/sign-in")).toBe("http://localhost:3000/sign-in");
  });
});

describe("signInPath", () => {
  it("carries a path of this site, and nothing else", () => {
    expect(signInPath("/missions/mis_1/edit", ORIGIN)).toBe("/sign-in?callbackUrl=%2Fmissions%2Fmis_1%2Fedit");
    expect(signInPath("/\\evil.example", ORIGIN)).toBe("/sign-in");
  });
});
