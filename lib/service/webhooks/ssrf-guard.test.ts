import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeWebhookCall, type WebhookCall } from "./execute-webhook-call";
import { assertSafeWebhookUrl, isAllowedPort, isPrivateAddress, isPublicAddress } from "./ssrf-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1", "127.1.2.3", "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1", "240.0.0.1",
    "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "fd00:ec2::254", "ff02::1", "2001:db8::1",
    // IPv4 wrapped in IPv6, in every form
    "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::8.8.8.8",
    "::7f00:1", // IPv4-compatible (deprecated), missed by the old hand-written list
    "::127.0.0.1",
    "64:ff9b:1::7f00:1", // local-use NAT64 (RFC 8215), missed before
    "2002:7f00:1::", // 6to4 of 127.0.0.1, missed before
    "2001::1", // Teredo
    "fec0::1", // deprecated site-local, missed before
    "100::1", // discard-only
    // not an address at all
    "localhost", "", "127.1", "1.2.3.4.5",
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

  const call = (url: string): WebhookCall => ({ url, payload: "{}", eventId: "evt_1", eventType: "webhook.test", deliveryId: "dlv_1", attempt: 1, secret: "whsec_test", previousSecret: null });

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

  it("private targets allowed: the call goes through", async () => {
    const result = await executeWebhookCall(call(`http://127.0.0.1:${port}/hook`), { timeoutMs: 1000, allowPrivate: true });
    expect(result.statusCode).toBe(200);
  });
});
