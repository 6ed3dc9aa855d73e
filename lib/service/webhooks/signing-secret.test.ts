// How each stored secret keys webhook-signature: a standard secret's decoded bytes (so the
// official library verifies in its default mode), a legacy secret's characters (as before).
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { standardSignature } from "./sign-payload";
import { newStandardSecret, standardSignatureKey } from "./signing-secret";

const body = JSON.stringify({ id: "evt_1", event: "webhook.test", timestamp: "2026-11-29T05:00:00.000Z", data: {} });

describe("signing secrets", () => {
  it("makes whsec_ + standard base64 of 32 random bytes, different every time", () => {
    const a = newStandardSecret();
    expect(a).toMatchObject({ format: "standard", value: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) as string });
    expect(standardSignatureKey(a)).toEqual(Buffer.from(a.value.slice(6), "base64"));
    expect(newStandardSecret().value).not.toBe(a.value);
  });

  it("keys a legacy secret with its characters, a standard one with its bytes", () => {
    expect(standardSignatureKey({ value: "whsec_abc-_def", format: "legacy" })).toEqual(Buffer.from("whsec_abc-_def", "utf8"));
    const bytes = Buffer.from(Array.from({ length: 24 }, (_, i) => i * 7));
    expect(standardSignatureKey({ value: `whsec_${bytes.toString("base64")}`, format: "standard" })).toEqual(bytes);
  });

  it("refuses a standard secret that is not canonical base64 rather than sign with the wrong key", () => {
    expect(() => standardSignatureKey({ value: "whsec_not base64!", format: "standard" })).toThrow(/standard base64/);
    expect(() => standardSignatureKey({ value: "whsec_", format: "standard" })).toThrow(/standard base64/);
  });

  it("signs so that the official library verifies a standard secret in its default mode, and a legacy one only raw", () => {
    const now = Math.floor(Date.now() / 1000);
    const standard = newStandardSecret();
    const legacy = { value: "whsec_0123456789abcdefghij-_", format: "legacy" } as const;
    const headers = (secret: typeof standard | typeof legacy) => ({
      "webhook-id": "evt_1",
      "webhook-timestamp": String(now),
      "webhook-signature": standardSignature([secret], "evt_1", now, body),
    });
    expect(new Webhook(standard.value).verify(body, headers(standard))).toMatchObject({ id: "evt_1" });
    expect(() => new Webhook(standard.value, { format: "raw" }).verify(body, headers(standard))).toThrow();
    expect(new Webhook(legacy.value, { format: "raw" }).verify(body, headers(legacy))).toMatchObject({ id: "evt_1" });
    // Both during a rotation: either secret's holder verifies.
    const both = { ...headers(standard), "webhook-signature": standardSignature([standard, legacy], "evt_1", now, body) };
    expect(new Webhook(standard.value).verify(body, both)).toMatchObject({ id: "evt_1" });
    expect(new Webhook(legacy.value, { format: "raw" }).verify(body, both)).toMatchObject({ id: "evt_1" });
  });
});
