import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signatureMatches, signBody } from "./webhook-receiving";

describe("webhook signatures", () => {
  const body = Buffer.from('{"id":"evt_1","type":"photos.delivered"}');

  it("signs as the spec says: hex HMAC-SHA256 of the raw body", () => {
    expect(signBody("s3cret", body)).toBe(createHmac("sha256", "s3cret").update(body).digest("hex"));
    expect(signBody("s3cret", body.toString("utf8"))).toBe(signBody("s3cret", body));
  });

  it("accepts the body's own signature only", () => {
    const signature = signBody("s3cret", body);
    expect(signatureMatches("s3cret", body, signature)).toBe(true);
    expect(signatureMatches("other", body, signature)).toBe(false);
    expect(signatureMatches("s3cret", Buffer.from('{"id":"evt_2"}'), signature)).toBe(false);
    expect(signatureMatches("s3cret", body, signature.slice(1))).toBe(false);
    expect(signatureMatches("s3cret", body, undefined)).toBe(false);
  });

  it("accepts nothing before a secret is known", () => {
    expect(signatureMatches("", body, signBody("", body))).toBe(false);
  });
});
