import { describe, expect, it } from "vitest";
import { assertSafeWebhookUrl, isPrivateAddress } from "./ssrf-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1", "127.1.2.3", "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1",
    "::ffff:7f00:1", "64:ff9b::a9fe:a9fe", "fd00:ec2::254",
  ])("refuses %s", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("assertSafeWebhookUrl", () => {
  const refuse = (url: string) => expect(assertSafeWebhookUrl(url, { allowPrivate: false })).rejects.toThrow();

  it("refuses loopback, private and metadata targets in every spelling", async () => {
    await refuse("http://127.0.0.1/hook");
    await refuse("http://[::1]:8080/hook");
    await refuse("http://169.254.169.254/latest/meta-data/");
    await refuse("http://10.1.2.3/hook");
    await refuse("http://0x7f000001/hook");
    await refuse("http://2130706433/hook");
    await refuse("http://0177.0.0.1/hook");
    await refuse("http://[::ffff:127.0.0.1]/hook");
    await refuse("http://localhost:3000/hook"); // a name resolving to a private address
  });

  it("refuses other schemes, credentials and garbage", async () => {
    await refuse("ftp://example.com/hook");
    await refuse("file:///etc/passwd");
    await refuse("https://user:pass@93.184.216.34/hook");
    await refuse("not a url");
  });

  it("accepts a public address, and private ones when allowed", async () => {
    await expect(assertSafeWebhookUrl("https://93.184.216.34/hook", { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    await expect(assertSafeWebhookUrl("http://127.0.0.1:4000/hook", { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});
