// The secrets that sign webhook requests (an endpoint's, and an organisation's order-delivery
// secret) and how each one keys the two signatures a request carries.
//
// Standard Webhooks (standardwebhooks.com) defines a secret as `whsec_` + the standard base64 of
// random bytes, and keys `webhook-signature` with the DECODED bytes; its libraries do exactly that
// in their default mode (`new Webhook(secret)`). Secrets made before this service followed it
// (`whsec_…` / `odsec_…` + base64url) keyed that HMAC with the secret's literal characters — the
// libraries' "raw" format. Which a stored secret is comes from its stored format, never from the
// string's look (an old base64url secret may well decode as base64 too): `legacy` rows keep
// signing exactly as before until the secret is rotated; every new or rotated secret is `standard`.
//
// `X-SVC-Signature` (the spec's header: hex HMAC-SHA256 of the body "keyed with the endpoint
// secret") stays keyed with the secret's characters as shown, in both formats, so receivers that
// verify it by hand keep working across a rotation.
import { randomBytes } from "node:crypto";
import type { SecretFormat } from "@/lib/db/schema";

export interface SigningSecret {
  /** The secret as shown to its owner (opened from the secret box). */
  value: string;
  format: SecretFormat;
}

export const STANDARD_SECRET_PREFIX = "whsec_";
/** Random bytes in a new secret: the spec allows 24 to 64; 32 is an HMAC-SHA256 block's worth of entropy and more. */
const SECRET_BYTES = 32;

/** A new secret in the Standard Webhooks form: `whsec_` + standard base64 (with padding) of 32 random bytes. */
export function newStandardSecret(): SigningSecret {
  return { value: `${STANDARD_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`, format: "standard" };
}

/** The HMAC key of `webhook-signature`: the decoded bytes of a standard secret, a legacy secret's characters. */
export function standardSignatureKey(secret: SigningSecret): Buffer {
  if (secret.format === "legacy") return Buffer.from(secret.value, "utf8");
  const encoded = secret.value.startsWith(STANDARD_SECRET_PREFIX) ? secret.value.slice(STANDARD_SECRET_PREFIX.length) : secret.value;
  const key = Buffer.from(encoded, "base64");
  // Node decodes leniently; a stored standard secret is always canonical, so anything else is a bug.
  if (key.length === 0 || key.toString("base64") !== encoded) throw new Error("A standard webhook secret is not standard base64.");
  return key;
}
