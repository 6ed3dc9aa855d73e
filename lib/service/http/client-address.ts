import type { Context } from "hono";

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The caller's address. Behind a proxy we trust (Next in the one-process default), the last
 * X-Forwarded-For entry is the one that proxy added; anything before it is client-supplied.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  const bindings: unknown = c.env;
  if (typeof bindings === "object" && bindings !== null && "incoming" in bindings) {
    const address = (bindings as NodeBindings).incoming?.socket?.remoteAddress;
    if (address) return address;
  }
  return "unknown";
}
