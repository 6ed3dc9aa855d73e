// Public identifiers: a prefix naming the kind of object, then a time-ordered opaque suffix
// (48 bits of milliseconds + 80 random bits, Crockford base32, like a lower-case ULID), so ids
// sort by creation time and reveal nothing guessable.
import { randomBytes, randomFillSync } from "node:crypto";

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

// The random part comes from a pool the system's CSPRNG fills 4 KiB at a time, as Node's own
// crypto.randomUUID does: each synchronous randomBytes() call costs ≈ 5 µs here (a call into
// OpenSSL and a new Buffer), ≈ 7 % of a webhook event's path on the embedded database, where one
// event makes several ids (docs/benchmarks.md, webhook-delivery); a slice of the pool costs ≈ 20 ns.
// Each byte is handed out once; ids are public, so the pool holds nothing secret.
const RANDOM_BYTES = 10;
const pool = new Uint8Array(4096 - (4096 % RANDOM_BYTES));
let poolOffset = pool.length;

function takeRandom(into: Uint8Array, at: number): void {
  if (poolOffset + RANDOM_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  into.set(pool.subarray(poolOffset, poolOffset + RANDOM_BYTES), at);
  poolOffset += RANDOM_BYTES;
}

export function createId(kind: IdKind, now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  takeRandom(bytes, 6);
  return `${ID_PREFIXES[kind]}_${encodeBase32(bytes)}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** A high-entropy secret for credentials: shown once, stored only as a hash. */
export function createSecret(prefix: string, byteLength = 32): string {
  return `${prefix}_${randomBytes(byteLength).toString("base64url")}`;
}
