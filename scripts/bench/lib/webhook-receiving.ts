// What every webhook receiver in the benchmarks does alike: check the spec's signature
// (X-SVC-Signature = hex HMAC-SHA256 of the raw body with the endpoint's secret), computed here
// apart from the service's signer so a wrong signature is caught, in both receivers (the child
// process webhook-receiver.ts and the in-process delivery-receiver.ts); and the idle-connection
// times of a receiver behind a load balancer.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";

/** The X-SVC-Signature of `body` under `secret`. */
export function signBody(secret: string, body: string | Buffer): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/** Whether `given` is the signature of `body` under `secret`; never with an empty secret. */
export function signatureMatches(secret: string, body: Buffer, given: string | undefined): boolean {
  if (secret === "") return false;
  const expected = Buffer.from(signBody(secret, body));
  const received = Buffer.from(given ?? "");
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/**
 * Keep-alive longer than a sender's idle gaps, as a receiver behind a balancer keeps idle
 * connections for a minute or more: node's 5 s default would close a connection under a sender
 * that (its event loop busy) can still pick it for a POST and fail with "other side closed".
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
}
