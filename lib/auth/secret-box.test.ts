import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, decodeSecretsKey, generateSecretsKey, keyIdOf, SecretBoxError } from "./secret-box";

const keyA = randomBytes(32);
const keyB = randomBytes(32);

describe("createSecretBox", () => {
  it("seals to a versioned value naming its key, and opens it again", () => {
    const box = createSecretBox({ current: keyA });
    const sealed = box.seal("whsec_plaintext-secret");
    expect(sealed).toMatch(new RegExp(`^v1:${keyIdOf(keyA)}:[\\w-]{16}:[\\w-]+$`));
    expect(sealed).not.toContain("plaintext-secret");
    expect(box.open(sealed)).toBe("whsec_plaintext-secret");
  });

  it("uses a fresh IV per value: the same secret never seals to the same text", () => {
    const box = createSecretBox({ current: keyA });
    expect(box.seal("same")).not.toBe(box.seal("same"));
  });

  it("reads legacy plaintext as is, and says it needs sealing", () => {
    const box = createSecretBox({ current: keyA });
    expect(box.open("whsec_legacy")).toBe("whsec_legacy");
    expect(box.needsReseal("whsec_legacy")).toBe(true);
    expect(box.needsReseal(box.seal("x"))).toBe(false);
  });

  it("after a rotation, opens values of the previous key and marks them for resealing", () => {
    const old = createSecretBox({ current: keyA }).seal("rotated");
    const rotated = createSecretBox({ current: keyB, previous: [keyA] });
    expect(rotated.open(old)).toBe("rotated");
    expect(rotated.needsReseal(old)).toBe(true);
    expect(rotated.needsReseal(rotated.seal("rotated"))).toBe(false);
  });

  it("refuses a value sealed with a key it does not have, naming the key", () => {
    const sealed = createSecretBox({ current: keyA }).seal("x");
    expect(() => createSecretBox({ current: keyB }).open(sealed)).toThrow(new RegExp(keyIdOf(keyA)));
  });

  it("refuses a tampered value (GCM authenticates ciphertext, version and key id)", () => {
    const box = createSecretBox({ current: keyA });
    const sealed = box.seal("tamper me");
    const parts = sealed.split(":");
    const body = Buffer.from(parts[3] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => box.open([parts[0], parts[1], parts[2], body.toString("base64url")].join(":"))).toThrow(SecretBoxError);
  });

  it("refuses keys of the wrong size", () => {
    expect(() => createSecretBox({ current: randomBytes(16) })).toThrow(SecretBoxError);
  });
});

describe("decodeSecretsKey", () => {
  it("reads base64url, base64 and hex forms of a 32-byte key", () => {
    expect(decodeSecretsKey(keyA.toString("base64url"))?.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(keyA.toString("base64"))?.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(keyA.toString("hex"))?.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(`${generateSecretsKey()}\n`)).toHaveLength(32);
  });

  it.each(["", "short", randomBytes(16).toString("base64url"), randomBytes(33).toString("base64url"), "z".repeat(64)])("refuses %j", (text) => {
    expect(decodeSecretsKey(text)).toBeNull();
  });
});
