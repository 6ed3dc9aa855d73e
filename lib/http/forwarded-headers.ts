// The X-Forwarded-* headers a client sent, believed only when a proxy of ours sits in front
// (TRUST_PROXY): Next takes a server action's host for its CSRF check, and the protocol, from
// them, and proxy.ts the same. Without a trusted proxy they are dropped before Next sees the
// request, and Next fills them from the connection (Host, the socket) itself.
import type { IncomingHttpHeaders } from "node:http";

export const FORWARDED_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-forwarded-for"] as const;

/** Removes client-sent X-Forwarded-* headers unless `trustProxy`; returns the names removed. */
export function dropUntrustedForwardedHeaders(headers: IncomingHttpHeaders, trustProxy: boolean): string[] {
  if (trustProxy) return [];
  const dropped = FORWARDED_HEADERS.filter((name) => headers[name] !== undefined);
  for (const name of dropped) delete headers[name];
  return dropped;
}
