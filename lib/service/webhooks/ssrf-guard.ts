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
// A setting allows private targets (loopback and LAN receivers) for local development and tests;
// the port rule and the metadata rule always hold. Cloud metadata services (instance credentials,
// user data) are never a receiver: their addresses — the whole IPv4 link-local block, where every
// cloud puts them, Alibaba's 100.100.100.200, Oracle's 192.0.0.192, Azure's wire server, AWS's
// fd00:ec2::/32 — in any IPv6 wrapping (mapped, compatible, NAT64, 6to4, Teredo), and the names
// they answer to, are refused whatever the setting.
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

const METADATA_V4 = [
  "169.254.0.0/16", // link-local: AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean (169.254.169.254), ECS (169.254.170.2)
  "100.100.100.200/32", // Alibaba Cloud
  "192.0.0.192/32", // Oracle Cloud (legacy)
  "168.63.129.16/32", // Azure wire server
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
const METADATA_V6 = ["fd00:ec2::/32"].map((cidr) => ipaddr.IPv6.parseCIDR(cidr)); // AWS IMDS, DNS, time, EKS pod identity
/** Names metadata services answer to, besides their addresses (a resolver outside the cloud may not know them). */
export const METADATA_HOSTNAMES: readonly string[] = ["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"];

const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);

/** The IPv4 addresses an IPv6 address may carry: compatible, SIIT, NAT64 (/96, and RFC 8215's /48 at RFC 6052's place), 6to4, Teredo. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = address.toByteArray();
  const last4 = v4(b.slice(12, 16));
  const range = address.range();
  if (b.slice(0, 12).every((x) => x === 0) || range === "rfc6145") return [last4];
  if (range === "rfc6052") return [last4, v4([b[6] ?? 0, b[7] ?? 0, b[9] ?? 0, b[10] ?? 0])];
  if (range === "6to4") return [v4(b.slice(2, 6))];
  if (range === "teredo") return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff))];
  return [];
}

/** Whether the address (IPv4 or IPv6 text) is a cloud metadata service's, in any spelling. */
export function isMetadataAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, "");
  if (isIP(text) === 0 || !ipaddr.isValid(text)) return false;
  const parsed = ipaddr.process(text);
  if (parsed.kind() === "ipv4") return METADATA_V4.some((cidr) => (parsed as ipaddr.IPv4).match(cidr));
  const v6 = parsed as ipaddr.IPv6;
  return METADATA_V6.some((cidr) => v6.match(cidr)) || embeddedV4(v6).some((inner) => METADATA_V4.some((cidr) => inner.match(cidr)));
}

/** Whether a host name is one a metadata service answers to (case and a trailing dot ignored). */
export function isMetadataHostname(host: string): boolean {
  return METADATA_HOSTNAMES.includes(host.toLowerCase().replace(/\.+$/, ""));
}

/** Whether an outgoing request may connect to this address: public, or with private targets allowed any address but a metadata service's. */
export function isAllowedTarget(address: string, { allowPrivate }: { allowPrivate: boolean }): boolean {
  const text = address.replace(/^\[|\]$/g, "");
  if (isIP(text) === 0 || isMetadataAddress(text)) return false;
  return allowPrivate || isPublicAddress(text);
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
 * every address its host resolves to is public (unless private targets are allowed), and never
 * a cloud metadata service's. Other
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
  // WHATWG parsing has already normalised 0x7f000001, 2130706433 and 0177.0.0.1 to 127.0.0.1.
  const host = hostOf(url);
  if (isMetadataHostname(host)) throw new UnsafeTargetError(`${host} is a cloud metadata service, never a receiver.`);
  if (isIP(host)) {
    if (!isAllowedTarget(host, { allowPrivate })) throw new UnsafeTargetError(`${host} is ${refusedAddress(host)}.`);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true });
  } catch {
    // Private targets allowed (development): a name that does not resolve yet is checked when it is called.
    if (allowPrivate) return url;
    throw new UnsafeTargetError(`${host} does not resolve.`);
  }
  const bad = addresses.find((a) => !isAllowedTarget(a.address, { allowPrivate }));
  if (bad) throw new UnsafeTargetError(`${host} resolves to ${bad.address}, ${refusedAddress(bad.address)}.`);
  return url;
}

/** Why an address is refused, for the error message. */
export function refusedAddress(address: string): string {
  return isMetadataAddress(address) ? "a private or reserved address (a cloud metadata service's, refused in every setting)" : "a private or reserved address";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private (always: metadata) addresses at connect time — the address the
 * socket will really use, not the one seen at registration. Node skips `lookup` for IP literals:
 * execute-webhook-call.ts checks those itself, and every socket's peer address once connected.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = isMetadataHostname(hostname) ? list[0] : list.find((a) => !isAllowedTarget(a.address, { allowPrivate }));
      if (bad) return callback(new UnsafeTargetError(`${hostname} resolved to ${bad.address}, ${refusedAddress(bad.address)}; not connecting.`), []);
      if ("all" in options && options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
