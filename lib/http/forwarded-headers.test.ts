import { describe, expect, it } from "vitest";
import { dropUntrustedForwardedHeaders } from "./forwarded-headers";

describe("dropUntrustedForwardedHeaders", () => {
  it("drops a client's X-Forwarded-* headers when no proxy of ours is trusted", () => {
    const headers = { host: "127.0.0.1:3000", "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https", accept: "*/*" };
    expect(dropUntrustedForwardedHeaders(headers, false)).toEqual(["x-forwarded-host", "x-forwarded-proto"]);
    expect(headers).toEqual({ host: "127.0.0.1:3000", accept: "*/*" });
  });

  it("keeps them behind a trusted proxy (TRUST_PROXY)", () => {
    const headers = { host: "10.0.0.5:3000", "x-forwarded-host": "missions.example.com" };
    expect(dropUntrustedForwardedHeaders(headers, true)).toEqual([]);
    expect(headers["x-forwarded-host"]).toBe("missions.example.com");
  });
});
