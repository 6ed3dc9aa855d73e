import { describe, expect, it } from "vitest";
import { checkImageSignature, signImageUrl, urlExpiry } from "./signed-url";

const options = { secret: "s3cret", cdnUrl: "http://localhost:3000/cdn", ttlSeconds: 3600, now: Date.UTC(2026, 10, 20, 10, 30) };

function parts(url: string) {
  const u = new URL(url);
  return { path: u.pathname, exp: u.searchParams.get("exp") ?? undefined, sig: u.searchParams.get("sig") ?? undefined };
}

describe("signed image URLs", () => {
  it("verify with the same secret until they expire", () => {
    const { path, exp, sig } = parts(signImageUrl("img_1", "original", options));
    expect(path).toBe("/cdn/images/img_1/original");
    expect(checkImageSignature("s3cret", "img_1", "original", exp, sig, options.now)).toBe("ok");
    expect(checkImageSignature("s3cret", "img_1", "original", exp, sig, Number(exp) * 1000 + 1)).toBe("expired");
  });

  it("cannot be moved to another image or variant, stretched, or signed with another secret", () => {
    const { exp, sig } = parts(signImageUrl("img_1", "thumbnail", options));
    expect(checkImageSignature("s3cret", "img_2", "thumbnail", exp, sig, options.now)).toBe("invalid");
    expect(checkImageSignature("s3cret", "img_1", "original", exp, sig, options.now)).toBe("invalid");
    expect(checkImageSignature("s3cret", "img_1", "thumbnail", String(Number(exp) + 86400), sig, options.now)).toBe("invalid");
    expect(checkImageSignature("other", "img_1", "thumbnail", exp, sig, options.now)).toBe("invalid");
    expect(checkImageSignature("s3cret", "img_1", "thumbnail", undefined, sig, options.now)).toBe("invalid");
  });

  it("hands out the same URL within a ttl window, valid for at least one ttl", () => {
    const exp = urlExpiry(3600, options.now);
    expect(exp * 1000 - options.now).toBeGreaterThanOrEqual(3600 * 1000);
    expect(signImageUrl("img_1", "original", options)).toBe(signImageUrl("img_1", "original", { ...options, now: options.now + 60_000 }));
  });
});
