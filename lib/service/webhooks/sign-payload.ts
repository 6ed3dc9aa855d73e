import { createHmac } from "node:crypto";

/** The spec's signature: hex HMAC-SHA256 of the raw body, keyed with the endpoint secret. */
export function signPayload(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/**
 * The same request signed as Standard Webhooks (standardwebhooks.com) has it, so its verifier
 * libraries work too: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's
 * bytes as they are (their libraries' "raw" secret format). Space-separated when a rotated-out
 * secret still signs.
 */
export function standardSignature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`).join(" ");
}
