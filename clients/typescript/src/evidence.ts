// verifyEvidence: checks a delivered photo's signed verification record (the `evidence` of
// `photos.delivered`, or GET /orders/{id}/photos/{photo_id}/evidence) against the service's
// published JWKS with WebCrypto's Ed25519 — no dependency — and, given the photo's bytes, that
// they are the bytes the record's SHA-256 names. Returns the record's claims.
import { EvidenceVerificationError } from "./errors.js";

export const EVIDENCE_TYP = "photo-evidence+jwt";

/** A JSON Web Key Set as /.well-known/jwks.json publishes it. */
export interface Jwks {
  keys: Array<{ kty?: string; crv?: string; x?: string; kid?: string; alg?: string; [member: string]: unknown }>;
}

export interface VerifyEvidenceOptions {
  /** The service's JWKS (fetch `${origin}/.well-known/jwks.json`; it may be cached). */
  jwks: Jwks;
  /** The photo's original bytes: verified against the record's SHA-256 when given. */
  photo?: Uint8Array | ArrayBuffer;
  /** When given, the record's `iss` must be this. */
  issuer?: string;
}

export interface EvidenceCheck {
  check: string;
  status: string | null;
  passed: boolean;
  score: number | null;
  value: unknown;
  threshold: unknown;
  signals?: unknown[];
}

export interface EvidenceRecord {
  iss: string;
  iat: number;
  photo_id: string;
  order_id: string;
  location_id: string;
  angle: string;
  sha256: string;
  byte_size: number;
  verification: string | null;
  checks: EvidenceCheck[];
  review: { decision: string; reviewed_at: string | null } | null;
  positions: {
    target: { lat: number; lng: number };
    exif: { lat: number; lng: number; accuracy_m: number | null } | null;
    device: { lat: number; lng: number; accuracy_m: number | null } | null;
  };
  times: { captured_at: string | null; device_captured_at: string | null; received_at: string | null; verified_at: string | null };
}

const decoder = new TextDecoder();

function base64url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new EvidenceVerificationError("The evidence is not a compact JWS (bad base64url).");
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function json(bytes: Uint8Array): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new EvidenceVerificationError("The evidence is not a compact JWS (bad JSON).");
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * @throws EvidenceVerificationError when the signature, the key, the header or (given) the photo's bytes do not check out.
 */
export async function verifyEvidence(evidence: string, options: VerifyEvidenceOptions): Promise<EvidenceRecord> {
  const parts = evidence.split(".");
  if (parts.length !== 3) throw new EvidenceVerificationError("The evidence is not a compact JWS (three parts).");
  const [headerPart = "", payloadPart = "", signaturePart = ""] = parts;
  const header = json(base64url(headerPart));
  if (header.alg !== "EdDSA") throw new EvidenceVerificationError(`Unexpected algorithm ${JSON.stringify(header.alg)}: evidence is signed with EdDSA.`);
  if (header.typ !== EVIDENCE_TYP) throw new EvidenceVerificationError(`Not a photo evidence record (typ ${JSON.stringify(header.typ)}).`);
  const jwk = options.jwks.keys.find((k) => k.kid === header.kid);
  if (!jwk || jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string")
    throw new EvidenceVerificationError(`No Ed25519 key ${JSON.stringify(header.kid)} in the JWKS.`);
  const key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, base64url(signaturePart), signed)))
    throw new EvidenceVerificationError("The evidence's signature does not verify.");
  const record = json(base64url(payloadPart)) as unknown as EvidenceRecord;
  if (options.issuer !== undefined && record.iss !== options.issuer)
    throw new EvidenceVerificationError(`The evidence was issued by ${JSON.stringify(record.iss)}, not ${JSON.stringify(options.issuer)}.`);
  if (options.photo !== undefined) {
    const bytes = options.photo instanceof Uint8Array ? options.photo : new Uint8Array(options.photo);
    const digest = hex(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
    if (digest !== record.sha256) throw new EvidenceVerificationError("The photo's bytes are not the ones the evidence was signed for (SHA-256 differs).");
  }
  return record;
}
