// Outgoing requests to URLs our callers choose (webhook endpoints, an order's delivery URL) must
// reach the public internet only. One guard for all of them:
// - addresses: an allow-list, not a block-list. ipaddr.js (a maintained classification of the
//   IANA special-purpose registries) must call the address plain `unicast`, and an IPv6 address
//   must also be global unicast (2000::/3): that refuses loopback, private, link-local, metadata,
//   CGNAT, documentation, multicast, and every way of wrapping an IPv4 address in IPv6
//   (IPv4-mapped is judged by the IPv4 inside; IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 and
//   64:ff9b:1::/48, 6to4 2002::/16, Teredo are refused outright), and deprecated site-local fec0::/10;
// - ports: 80, 443, or 1024 and above. Below 1024 are the well-known services (SSH, SMTP, DNS…)
//   a webhook has no business talking to;
// - when: at registration (assertSafeWebhookUrl) and again for every connection
//   (execute-webhook-call.ts: IP literals before connecting, names through guardedLookup, and the
//   socket's actual peer address once connected), so a name that later resolves somewhere
//   private (DNS rebinding), or an endpoint registered while private targets were allowed, is
//   refused.
// A setting allows private targets for local development and tests; the port rule always holds.
import { isIP } from "node:net";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { promisify } from "node:util";
import ipaddr from "ipaddr.js";

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** Whether an outgoing request may connect to this address (IPv4 or IPv6 text). */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, "");
  // node:net's strict syntax first: ipaddr.js also reads legacy forms such as "127.1".
  if (isIP(text) === 0 || !ipaddr.isValid(text)) return false;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 it carries.
  const parsed = ipaddr.process(text);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  return parsed.range() === "unicast" && parsed.match(GLOBAL_UNICAST_V6);
}

/** The opposite of isPublicAddress: loopback, private, link-local, reserved… or not an address at all. */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

export const ALLOWED_LOW_PORTS: readonly number[] = [80, 443];
export const FIRST_UNPRIVILEGED_PORT = 1024;

/** The port a URL connects to: its own, or its scheme's default. */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

export function isAllowedPort(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port <= 65_535 && (port >= FIRST_UNPRIVILEGED_PORT || ALLOWED_LOW_PORTS.includes(port));
}

export class UnsafeTargetError extends Error {
  /** Node's error convention, so a refused connection reads like any other connect error. */
  readonly code = "EPRIVATE";
}

const lookupAll = promisify(dnsLookup);

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** Scheme, credentials and port: what can be said of a URL without resolving it. */
export function assertSafeUrlShape(url: URL): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UnsafeTargetError("Use an http or https URL.");
  if (url.username || url.password) throw new UnsafeTargetError("Put no credentials in the URL; verify our signature instead.");
  const port = portOf(url);
  if (!isAllowedPort(port)) {
    throw new UnsafeTargetError(`Port ${port} is not allowed: use 80, 443, or a port from ${FIRST_UNPRIVILEGED_PORT} up.`);
  }
}

/**
 * Checks a target URL when it is registered: http(s) only, no credentials, an allowed port, and
 * every address its host resolves to is public (unless private targets are allowed). Other
 * features that call URLs their users give (an order's delivery URL) use this same function.
 */
export async function assertSafeWebhookUrl(raw: string, { allowPrivate }: { allowPrivate: boolean }): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError("This is not a valid URL.");
  }
  assertSafeUrlShape(url);
  if (allowPrivate) return url;
  // WHATWG parsing has already normalised 0x7f000001, 2130706433 and 0177.0.0.1 to 127.0.0.1.
  const host = hostOf(url);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new UnsafeTargetError(`${host} is a private or reserved address.`);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true });
  } catch {
    throw new UnsafeTargetError(`${host} does not resolve.`);
  }
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new UnsafeTargetError(`${host} resolves to ${bad.address}, a private or reserved address.`);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses at connect time — the address the
 * socket will really use, not the one seen at registration. Node skips `lookup` for IP literals:
 * execute-webhook-call.ts checks those itself, and every socket's peer address once connected.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(new UnsafeTargetError(`${hostname} resolved to ${bad.address}, a private or reserved address; not connecting.`), []);
      if ("all" in options && options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
