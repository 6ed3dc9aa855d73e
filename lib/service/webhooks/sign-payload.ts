import { createHmac } from "node:crypto";
import { standardSignatureKey, type SigningSecret } from "./signing-secret";

/** The spec's `X-SVC-Signature`: hex HMAC-SHA256 of the raw body, keyed with the endpoint secret's characters as shown. */
export function signPayload(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/**
 * Standard Webhooks' `webhook-signature` (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed as ./signing-secret.ts says (a standard secret's decoded bytes, so
 * their libraries verify it in their default mode; a legacy secret's characters, as before).
 * Space-separated when a rotated-out secret still signs.
 */
export function standardSignature(secrets: SigningSecret[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac("sha256", standardSignatureKey(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`)
    .join(" ");
}
