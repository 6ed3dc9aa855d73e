import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeWebhookCall, type WebhookCall } from "./execute-webhook-call";
import { assertSafeWebhookUrl, guardedLookup, isAllowedPort, isAllowedTarget, isMetadataAddress, isPrivateAddress, isPublicAddress } from "./ssrf-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "198.18.0.1",
    "240.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "fd00:ec2::254",
    "ff02::1",
    "2001:db8::1",
    // IPv4 wrapped in IPv6, in every form
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::8.8.8.8",
    "::7f00:1", // IPv4-compatible (deprecated), missed by the old hand-written list
    "::127.0.0.1",
    "64:ff9b:1::7f00:1", // local-use NAT64 (RFC 8215), missed before
    "2002:7f00:1::", // 6to4 of 127.0.0.1, missed before
    "2001::1", // Teredo
    "fec0::1", // deprecated site-local, missed before
    "100::1", // discard-only
    // not an address at all
    "localhost",
    "",
    "127.1",
    "1.2.3.4.5",
  ])("refuses %s", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450:4001:80e::200e", "::ffff:8.8.8.8", "[2606:4700:4700::1111]"])(
    "allows %s",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

// Cloud metadata services: never a target, even where private targets are allowed (development).
const METADATA_FORMS = [
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean
  "169.254.170.2", // AWS ECS task metadata
  "169.254.169.123", // AWS time sync
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud (legacy)
  "168.63.129.16", // Azure wire server
  "fd00:ec2::254", // AWS IMDS over IPv6
  "fd00:ec2::23", // EKS pod identity
  "[fd00:ec2::254]",
  "::ffff:169.254.169.254", // IPv4-mapped
  "::ffff:a9fe:a9fe",
  "::ffff:100.100.100.200",
  "::169.254.169.254", // IPv4-compatible
  "::ffff:0:a9fe:a9fe", // SIIT (RFC 6145)
  "64:ff9b::a9fe:a9fe", // NAT64
  "64:ff9b::169.254.169.254",
  "64:ff9b:1:a9fe:a9:fe00::", // local-use NAT64 /48 (RFC 6052 layout)
  "64:ff9b:1::a9fe:a9fe", // local-use NAT64 with the /96 layout
  "2002:a9fe:a9fe::", // 6to4
  "2001:0:a9fe:a9fe::1", // Teredo server field
  "2001:0:4136:e378:8000:63bf:5601:5601", // Teredo client field (obfuscated 169.254.169.254)
];

describe("isMetadataAddress / isAllowedTarget", () => {
  it.each(METADATA_FORMS)("refuses %s in every setting", (address) => {
    expect(isMetadataAddress(address)).toBe(true);
    expect(isAllowedTarget(address, { allowPrivate: true })).toBe(false);
    expect(isAllowedTarget(address, { allowPrivate: false })).toBe(false);
  });

  it.each(["127.0.0.1", "10.0.0.5", "192.168.1.20", "172.16.0.1", "::1", "fd12:3456::1", "::ffff:127.0.0.1", "8.8.8.8"])(
    "lets %s through where private targets are allowed",
    (address) => {
      expect(isMetadataAddress(address)).toBe(false);
      expect(isAllowedTarget(address, { allowPrivate: true })).toBe(true);
    },
  );

  it("is not fooled by what is not an address", () => {
    expect(isAllowedTarget("localhost", { allowPrivate: true })).toBe(false);
    expect(isMetadataAddress("metadata.google.internal")).toBe(false); // a name: see the URL and lookup checks
  });
});

describe("isAllowedPort", () => {
  it.each([80, 443, 1024, 3000, 8080, 8443, 65535])("allows %i", (port) => expect(isAllowedPort(port)).toBe(true));
  it.each([0, 1, 22, 25, 53, 110, 143, 389, 445, 587, 993, 1023, 65536])("refuses %i", (port) => expect(isAllowedPort(port)).toBe(false));
});

describe("assertSafeWebhookUrl", () => {
  const refuse = (url: string, allowPrivate = false) => expect(assertSafeWebhookUrl(url, { allowPrivate })).rejects.toThrow();

  it("refuses loopback, private and metadata targets in every spelling", async () => {
    await refuse("http://127.0.0.1/hook");
    await refuse("http://[::1]:8080/hook");
    await refuse("http://169.254.169.254/latest/meta-data/");
    await refuse("http://10.1.2.3/hook");
    await refuse("http://0x7f000001/hook");
    await refuse("http://2130706433/hook");
    await refuse("http://0177.0.0.1/hook");
    await refuse("http://[::ffff:127.0.0.1]/hook");
    await refuse("http://[::7f00:1]/hook");
    await refuse("http://[64:ff9b:1::7f00:1]/hook");
    await refuse("http://[2002:7f00:1::]/hook");
    await refuse("http://[fec0::1]/hook");
    await refuse("http://localhost:3000/hook"); // a name resolving to a private address
  });

  it("refuses other schemes, credentials and garbage", async () => {
    await refuse("ftp://example.com/hook");
    await refuse("file:///etc/passwd");
    await refuse("https://user:pass@93.184.216.34/hook");
    await refuse("not a url");
  });

  it("refuses well-known service ports other than 80 and 443, even where private targets are allowed", async () => {
    await refuse("http://93.184.216.34:22/hook");
    await refuse("https://93.184.216.34:25/hook");
    await refuse("http://127.0.0.1:6/hook", true);
    await expect(assertSafeWebhookUrl("http://93.184.216.34:8080/hook", { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl("https://93.184.216.34:443/hook", { allowPrivate: false })).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ...METADATA_FORMS.map((address) => `http://${address.includes(":") && !address.startsWith("[") ? `[${address}]` : address}/latest/meta-data/`),
    "http://0xa9fea9fe/latest/meta-data/", // 169.254.169.254 in hex, normalised by URL parsing
    "http://2852039166/latest/meta-data/", // in decimal
    "http://0251.0376.0251.0376/latest/meta-data/", // in octal
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://METADATA.google.internal./computeMetadata/v1/",
    "http://metadata/computeMetadata/v1/",
    "http://metadata.goog/computeMetadata/v1/",
  ])("refuses the metadata target %s even where private targets are allowed", async (url) => {
    await expect(assertSafeWebhookUrl(url, { allowPrivate: true })).rejects.toThrow(/metadata/);
    await expect(assertSafeWebhookUrl(url, { allowPrivate: false })).rejects.toThrow();
  });

  it("refuses a name that resolves to a metadata address at connect time, private targets allowed or not", async () => {
    // metadata.google.internal does not resolve outside Google's cloud: what matters is the guard's answer for the name.
    for (const allowPrivate of [true, false]) {
      const error = await new Promise<Error | null>((resolve) => guardedLookup(allowPrivate)("metadata.google.internal", {}, (e) => resolve(e)));
      expect(error).not.toBeNull();
    }
  });

  it("accepts a public address, and private ones when allowed", async () => {
    await expect(assertSafeWebhookUrl("https://93.184.216.34/hook", { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl("http://127.0.0.1:4000/hook", { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});

describe("executeWebhookCall re-checks every connection", () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.end("ok");
    });
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = (url: string): WebhookCall => ({
    url,
    payload: "{}",
    eventId: "evt_1",
    eventType: "webhook.test",
    deliveryId: "dlv_1",
    attempt: 1,
    secret: { value: "whsec_test", format: "legacy" },
    previousSecret: null,
  });

  it("an IP literal (for which Node never calls lookup) is refused before connecting", async () => {
    const before = connections;
    const result = await executeWebhookCall(call(`http://127.0.0.1:${port}/hook`), { timeoutMs: 1000, allowPrivate: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/private or reserved/);
    expect(connections).toBe(before);
  });

  it.each(["[::ffff:127.0.0.1]", "[::ffff:7f00:1]"])("so is %s", async (host) => {
    const before = connections;
    const result = await executeWebhookCall(call(`http://${host}:${port}/hook`), { timeoutMs: 1000, allowPrivate: false });
    expect(result.error).toMatch(/private or reserved/);
    expect(connections).toBe(before);
  });

  it("a name resolving to loopback is refused by the guarded lookup", async () => {
    const before = requests;
    const result = await executeWebhookCall(call(`http://localhost:${port}/hook`), { timeoutMs: 1000, allowPrivate: false });
    expect(result.error).toMatch(/private or reserved/);
    expect(requests).toBe(before);
  });

  it("a port below 1024 other than 80/443 is refused without connecting, even to an allowed target", async () => {
    const result = await executeWebhookCall(call("http://127.0.0.1:25/hook"), { timeoutMs: 1000, allowPrivate: true });
    expect(result.error).toMatch(/Port 25 is not allowed/);
  });

  it.each(["169.254.169.254", "[fd00:ec2::254]", "[::ffff:169.254.169.254]", "metadata.google.internal"])(
    "a metadata target %s is refused without connecting, even where private targets are allowed",
    async (host) => {
      const result = await executeWebhookCall(call(`http://${host}/latest/meta-data/`), { timeoutMs: 1000, allowPrivate: true });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/metadata/);
    },
  );

  it("private targets allowed: the call goes through", async () => {
    const result = await executeWebhookCall(call(`http://127.0.0.1:${port}/hook`), { timeoutMs: 1000, allowPrivate: true });
    expect(result.statusCode).toBe(200);
  });

  it("calls to the same receiver one after another share a kept connection", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the earlier tests' kept sockets have gone idle and closed
    const before = { connections, requests };
    for (let i = 0; i < 3; i++) {
      const result = await executeWebhookCall(call(`http://127.0.0.1:${port}/hook`), { timeoutMs: 1000, allowPrivate: true });
      expect(result.statusCode).toBe(200);
    }
    expect(requests - before.requests).toBe(3);
    expect(connections - before.connections).toBe(1);
  });

  it("a kept connection the receiver drops as it is reused: sent again on a new one, within the same call", async () => {
    // The second request on any connection is cut off unanswered (a receiver closing an idle socket just then).
    let perSocket = new WeakMap<object, number>();
    const dropping = createServer((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n === 2) req.socket.destroy();
      else res.end("ok");
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/hook`;
    try {
      expect((await executeWebhookCall(call(url), { timeoutMs: 1000, allowPrivate: true })).statusCode).toBe(200);
      expect((await executeWebhookCall(call(url), { timeoutMs: 1000, allowPrivate: true })).statusCode).toBe(200);
    } finally {
      perSocket = new WeakMap();
      dropping.closeAllConnections();
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
    }
  });
});
