import { createHmac } from "node:crypto";

/** The spec's signature: hex HMAC-SHA256 of the raw body, keyed with the endpoint secret. */
export function signPayload(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}
