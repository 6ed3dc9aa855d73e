// Webhook targets must be public: loopback, private, link-local, metadata and other special
// addresses are refused when an endpoint is registered and again at connect time (the address
// actually dialled is checked, so a name that later resolves somewhere private — DNS rebinding —
// is refused too). A setting allows private targets for local development and tests.
import { BlockList, isIP } from "node:net";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { promisify } from "node:util";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64 (checked again below through its embedded IPv4)
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["fd00:ec2::254", 128], // AWS metadata over IPv6
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** IPv4 embedded in an IPv4-mapped (::ffff:a.b.c.d) or NAT64 IPv6 address, if any. */
function embeddedIpv4(address: string): string | null {
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex?.[1] && hex[2]) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true; // not an address at all: refuse
}

export class UnsafeTargetError extends Error {}

const lookupAll = promisify(dnsLookup);

/**
 * Checks a URL for registration: http(s) only, no credentials, and every address its host
 * resolves to is public (unless private targets are allowed).
 */
export async function assertSafeWebhookUrl(raw: string, { allowPrivate }: { allowPrivate: boolean }): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError("This is not a valid URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UnsafeTargetError("Use an http or https URL.");
  if (url.username || url.password) throw new UnsafeTargetError("Put no credentials in the URL; verify our signature instead.");
  if (allowPrivate) return url;
  // WHATWG parsing has already normalised 0x7f000001, 2130706433 and 0177.0.0.1 to 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new UnsafeTargetError(`${host} is a private or reserved address.`);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true });
  } catch {
    throw new UnsafeTargetError(`${host} does not resolve.`);
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw new UnsafeTargetError(`${host} resolves to ${bad.address}, a private or reserved address.`);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses at connect time — the address the
 * socket will really use, not the one seen at registration.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) {
        const refused: NodeJS.ErrnoException = new UnsafeTargetError(`${hostname} resolved to ${bad.address}, a private or reserved address; not connecting.`);
        refused.code = "EPRIVATE";
        return callback(refused, []);
      }
      if ("all" in options && options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
