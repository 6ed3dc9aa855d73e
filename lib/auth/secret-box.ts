// Encryption at rest for secrets the service must read back (token-signing private keys, webhook
// signing secrets, the CDN URL-signing key, an organisation's order-delivery secret): what the
// database (its files, WAL, dumps, backups) holds is ciphertext, and the key lives elsewhere — the
// environment (SECRETS_KEY) or a key file outside the database directory (lib/runtime/secrets-key.ts).
// Secrets we only compare (client secrets, API keys, passwords) are hashed instead, never sealed.
//
//   const stored = box.seal("whsec_…");   // "v1:k_1a2b3c4d:<iv>:<ciphertext+tag>", base64url parts
//   box.open(stored);                       // "whsec_…"; a legacy plaintext value comes back as is
//   box.needsReseal(stored);                // plaintext, or sealed with a key that is not current
//
// AES-256-GCM with a random 96-bit IV per value; the version and key id are authenticated too.
// The key id names the key that sealed a value, so after a rotation the previous keys still open
// old values and a reseal pass (lib/service/secrets.ts) rewrites them with the current one.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export const SEALED_PREFIX = "v1:";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** Id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plaintext: string): string;
  /** The plaintext of a sealed value; a value stored before sealing existed is returned unchanged. */
  open(stored: string): string;
  /** True for plaintext and for values sealed with a key other than the current one. */
  needsReseal(stored: string): boolean;
}

export class SecretBoxError extends Error {}

/** A short public name for a key, derived from it (so nothing else needs to be stored). */
export function keyIdOf(key: Buffer): string {
  return `k_${createHash("sha256").update("photo-missions secret-box key id\0").update(key).digest("hex").slice(0, 8)}`;
}

/** A 32-byte key from its text form: 64 hex digits, or base64 / base64url. Null when it is not one. */
export function decodeSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""), "base64url");
  return key.length === KEY_BYTES ? key : null;
}

export function generateSecretsKey(): string {
  return randomBytes(KEY_BYTES).toString("base64url");
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

export function createSecretBox({ current, previous = [] }: { current: Buffer; previous?: Buffer[] }): SecretBox {
  for (const key of [current, ...previous]) {
    if (key.length !== KEY_BYTES) throw new SecretBoxError(`A secrets key must be ${KEY_BYTES} bytes.`);
  }
  const keyId = keyIdOf(current);
  const keys = new Map<string, Buffer>();
  for (const key of [...previous, current]) keys.set(keyIdOf(key), key);

  return {
    keyId,
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      cipher.setAAD(Buffer.from(`${SEALED_PREFIX}${keyId}`));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED_PREFIX}${keyId}:${iv.toString("base64url")}:${body.toString("base64url")}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [, id = "", ivText = "", bodyText = ""] = stored.split(":");
      const key = keys.get(id);
      if (!key) {
        throw new SecretBoxError(
          `A stored secret is sealed with key ${id}, which is not configured (this process has ${[...keys.keys()].join(", ")}). ` +
            "Add that key as SECRETS_KEY_PREVIOUS (or to the key file) — see “Secrets at rest” in docs/security.md.",
        );
      }
      const iv = Buffer.from(ivText, "base64url");
      const body = Buffer.from(bodyText, "base64url");
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretBoxError("A stored secret is malformed.");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAAD(Buffer.from(`${SEALED_PREFIX}${id}`));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError(`A stored secret sealed with key ${id} failed authentication: it was altered, or the key is wrong.`);
      }
    },
    needsReseal(stored) {
      return !isSealed(stored) || stored.split(":")[1] !== keyId;
    },
  };
}

/**
 * A box with a random key that lives as long as this process: for throwaway databases only
 * (tests, benchmarks, generating the OpenAPI document). What it seals is unreadable afterwards.
 */
export function ephemeralSecretBox(): SecretBox {
  return createSecretBox({ current: randomBytes(KEY_BYTES) });
}
