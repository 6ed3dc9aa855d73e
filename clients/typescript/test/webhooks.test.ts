// verifyWebhook against the headers the service's own sender builds (lib/service/webhooks).
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhookHeaders, type WebhookCall } from "@/lib/service/webhooks/execute-webhook-call";
import { newStandardSecret } from "@/lib/service/webhooks/signing-secret";
import { verifyWebhook, WebhookVerificationError } from "../src/index";

const payload = JSON.stringify({ id: "evt_1", event: "submission.received", timestamp: "2026-01-01T00:00:00Z", data: { submission_id: "sub_1" } });
const call = (fields: Partial<WebhookCall> = {}): WebhookCall => ({
  url: "https://example.test/hooks",
  payload,
  eventId: "evt_1",
  eventType: "submission.received",
  deliveryId: "dlv_1",
  attempt: 1,
  // A secret from before the service followed Standard Webhooks exactly (keyed with its characters).
  secret: { value: "whsec_new_0123456789abcdef", format: "legacy" },
  previousSecret: null,
  ...fields,
});
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("verifyWebhook", () => {
  it("accepts the service's request and returns the event", async () => {
    const event = await verifyWebhook({ payload, headers: webhookHeaders(call(), NOW), secrets: "whsec_new_0123456789abcdef", now: NOW });
    expect(event).toMatchObject({ event: "submission.received", data: { submission_id: "sub_1" } });
  });

  it("accepts Headers objects and raw bytes as well", async () => {
    const headers = new Headers(webhookHeaders(call(), NOW));
    await expect(
      verifyWebhook({ payload: new TextEncoder().encode(payload), headers, secrets: ["whsec_new_0123456789abcdef"], now: NOW }),
    ).resolves.toMatchObject({ id: "evt_1" });
  });

  it("refuses a tampered body, a wrong secret, and missing headers", async () => {
    const headers = webhookHeaders(call(), NOW);
    await expect(
      verifyWebhook({ payload: payload.replace("sub_1", "sub_2"), headers, secrets: "whsec_new_0123456789abcdef", now: NOW }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook({ payload, headers, secrets: "whsec_other", now: NOW })).rejects.toThrow(/webhook-signature/);
    const unsigned = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "webhook-signature"));
    await expect(verifyWebhook({ payload, headers: unsigned, secrets: "whsec_new_0123456789abcdef", now: NOW })).rejects.toThrow(/Missing/);
  });

  it("refuses a request older (or newer) than the tolerance: a replay", async () => {
    const headers = webhookHeaders(call(), NOW);
    await expect(verifyWebhook({ payload, headers, secrets: "whsec_new_0123456789abcdef", now: NOW + 301_000 })).rejects.toThrow(/old/);
    await expect(verifyWebhook({ payload, headers, secrets: "whsec_new_0123456789abcdef", now: NOW - 301_000 })).rejects.toThrow(/old/);
    await expect(verifyWebhook({ payload, headers, secrets: "whsec_new_0123456789abcdef", now: NOW + 600_000, toleranceSeconds: 900 })).resolves.toBeTruthy();
  });

  it("during a rotation, a receiver holding either secret accepts the request", async () => {
    const headers = webhookHeaders(call({ previousSecret: { value: "whsec_old_0123456789abcdef", format: "legacy" } }), NOW);
    await expect(verifyWebhook({ payload, headers, secrets: ["whsec_old_0123456789abcdef"], now: NOW })).resolves.toBeTruthy();
    await expect(verifyWebhook({ payload, headers, secrets: ["whsec_new_0123456789abcdef", "whsec_old_0123456789abcdef"], now: NOW })).resolves.toBeTruthy();
  });

  it("refuses a request whose X-SVC-Signature does not match even when the standard signature does", async () => {
    const headers = { ...webhookHeaders(call(), NOW), "x-svc-signature": "00".repeat(32) };
    await expect(verifyWebhook({ payload, headers, secrets: "whsec_new_0123456789abcdef", now: NOW })).rejects.toThrow(/X-SVC-Signature/);
  });

  describe("with a Standard Webhooks secret (every secret made or rotated now)", () => {
    const standard = newStandardSecret();

    it("is whsec_ + the standard base64 of 32 random bytes", () => {
      expect(standard.value).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(standard.value.slice(6), "base64")).toHaveLength(32);
    });

    it("verifies, and so does the official standardwebhooks library in its default mode", async () => {
      const now = Date.now();
      const headers = webhookHeaders(call({ secret: standard }), now);
      await expect(verifyWebhook({ payload, headers, secrets: standard.value, now })).resolves.toMatchObject({ id: "evt_1" });
      expect(new Webhook(standard.value).verify(payload, headers)).toMatchObject({ id: "evt_1" });
      // The key is the decoded bytes, not the characters: their raw mode refuses it.
      expect(() => new Webhook(standard.value, { format: "raw" }).verify(payload, headers)).toThrow();
      expect(() => new Webhook(newStandardSecret().value).verify(payload, headers)).toThrow();
      expect(() => new Webhook(standard.value).verify(payload.replace("sub_1", "sub_2"), headers)).toThrow();
    });

    it("rotating a legacy secret: receivers holding either secret accept the request, the library with the new one", async () => {
      const now = Date.now();
      const legacy = { value: "whsec_old_0123456789abcdef", format: "legacy" } as const;
      const headers = webhookHeaders(call({ secret: standard, previousSecret: legacy }), now);
      await expect(verifyWebhook({ payload, headers, secrets: legacy.value, now })).resolves.toBeTruthy();
      await expect(verifyWebhook({ payload, headers, secrets: standard.value, now })).resolves.toBeTruthy();
      expect(new Webhook(standard.value).verify(payload, headers)).toMatchObject({ id: "evt_1" });
      expect(new Webhook(legacy.value, { format: "raw" }).verify(payload, headers)).toMatchObject({ id: "evt_1" });
    });
  });

  it("a legacy secret keeps signing as before: the library verifies it only in raw mode", () => {
    const now = Date.now();
    const headers = webhookHeaders(call(), now);
    expect(new Webhook("whsec_new_0123456789abcdef", { format: "raw" }).verify(payload, headers)).toMatchObject({ id: "evt_1" });
    expect(() => new Webhook("whsec_new_0123456789abcdef").verify(payload, headers)).toThrow();
  });
});
