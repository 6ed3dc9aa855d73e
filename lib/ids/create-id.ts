// Public identifiers: a prefix naming the kind of object, then a time-ordered opaque suffix
// (48 bits of milliseconds + 80 random bits, Crockford base32, like a lower-case ULID), so ids
// sort by creation time and reveal nothing guessable.
import { randomBytes } from "node:crypto";

import { ID_PREFIXES, type IdKind } from "./prefixes";

export { ID_PREFIXES, type IdKind };

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function createId(kind: IdKind, now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes.set(randomBytes(10), 6);
  return `${ID_PREFIXES[kind]}_${encodeBase32(bytes)}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** A high-entropy secret for credentials: shown once, stored only as a hash. */
export function createSecret(prefix: string, byteLength = 32): string {
  return `${prefix}_${randomBytes(byteLength).toString("base64url")}`;
}
