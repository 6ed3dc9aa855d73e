// JWT helpers for the API tests: read a token's parts, and forge the bad tokens the service must
// refuse (tampered, unsigned, signed by a stranger, or signed by the service for another issuer).
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { KeyStore, type AccessTokenClaims, type TokenSettings } from "@/lib/service/keys/tokens";
import type { TestService } from "./harness";

export type JsonObject = Record<string, unknown>;

export interface DecodedJwt {
  header: JsonObject;
  payload: JsonObject;
  /** The raw base64url segments, in order. */
  segments: [string, string, string];
}

const b64urlJson = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

function parseSegment(segment: string): JsonObject {
  const parsed: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("JWT segment is not a JSON object");
  return parsed as JsonObject;
}

/** Splits and decodes a compact JWS without verifying it. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split(".");
  const [header = "", payload = "", signature = ""] = parts;
  if (parts.length !== 3) throw new Error(`a compact JWT has 3 segments, this one has ${parts.length}`);
  return { header: parseSegment(header), payload: parseSegment(payload), segments: [header, payload, signature] };
}

/** The same token with payload claims changed and the original signature kept. */
export function withTamperedPayload(token: string, changes: JsonObject): string {
  const { payload, segments } = decodeJwt(token);
  return `${segments[0]}.${b64urlJson({ ...payload, ...changes })}.${segments[2]}`;
}

/** The same token with one bit of the signature flipped (in the middle, never in padding bits). */
export function withTamperedSignature(token: string): string {
  const { segments } = decodeJwt(token);
  const signature = Buffer.from(segments[2], "base64url");
  const middle = Math.floor(signature.length / 2);
  signature[middle] = (signature[middle] ?? 0) ^ 0x01;
  return `${segments[0]}.${segments[1]}.${signature.toString("base64url")}`;
}

/** An `alg: none` token carrying the claims (and kid/typ) of a real one. */
export function unsignedCopy(token: string): string {
  const { header, payload } = decodeJwt(token);
  return `${b64urlJson({ ...header, alg: "none" })}.${b64urlJson(payload)}.`;
}

/** A token with the real token's header and claims, signed by a fresh Ed25519 key that the service never saw. */
export async function signedByStranger(token: string): Promise<string> {
  const { header, payload } = decodeJwt(token);
  const { privateKey } = generateKeyPairSync("ed25519");
  return new SignJWT({ ...payload, jti: randomUUID() }).setProtectedHeader({ alg: "EdDSA", typ: String(header.typ), kid: String(header.kid) }).sign(privateKey);
}

/**
 * Signs with the service's own keys but other token settings (issuer, audience, lifetime): a
 * second KeyStore on the same database loads the same keys, so only the settings differ.
 */
export async function signWithServiceKeys(
  service: TestService,
  claims: AccessTokenClaims,
  settings: Partial<TokenSettings> = {},
  now?: number,
): Promise<string> {
  const { ctx } = service.runtime;
  const store = new KeyStore(ctx.db, { ...ctx.keys.settings, ...settings }, ctx.secretBox);
  await store.init();
  return (await store.sign(claims, { now })).token;
}

/** The access-token claims of a real token, to re-sign them differently. */
export function claimsOf(token: string): AccessTokenClaims {
  const { payload } = decodeJwt(token);
  const text = (name: string) => {
    const value = payload[name];
    if (typeof value !== "string") throw new Error(`claim ${name} is not a string`);
    return value;
  };
  const org = payload.org;
  return { sub: text("sub"), client_id: text("client_id"), scope: text("scope"), ...(typeof org === "string" ? { org } : {}) };
}
