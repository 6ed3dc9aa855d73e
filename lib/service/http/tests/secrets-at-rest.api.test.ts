// Secrets the service must read back are sealed in the database (lib/auth/secret-box.ts): what a
// copy of the database files, its WAL or a dump holds is ciphertext. Values written before sealing
// existed stay readable and are sealed at the next start; after a key rotation the previous key
// still opens old values until they are resealed with the new one.
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox, keyIdOf } from "@/lib/auth/secret-box";
import { KeyStore } from "@/lib/service/keys/tokens";
import { queryRows } from "@/lib/db/client";
import { provenanceCertificates, serviceSecrets, signingKeys, webhookEndpoints } from "@/lib/db/schema";
import { resealStoredSecrets } from "@/lib/service/secrets";
import { TestClient } from "./client";
import { startTestService, TEST_SECRETS_KEY, type TestService } from "./harness";
import { Receiver } from "./receiver";

let service: TestService;
let api: TestClient;
let receiver: Receiver;
let partner: Awaited<ReturnType<TestClient["partner"]>>;

beforeAll(async () => {
  service = await startTestService({}, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
  partner = await api.partner();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});

const db = () => service.runtime.ctx.db;
const sealedByTestKey = new RegExp(`^v1:${keyIdOf(TEST_SECRETS_KEY)}:`);

/** Every text value of the secret-bearing columns, as PostgreSQL holds them. */
async function storedSecretText(): Promise<string> {
  const rows = await queryRows<{ v: string | null }>(
    db(),
    sql`select secret as v from webhook_endpoints union all select previous_secret from webhook_endpoints
        union all select private_jwk::text from signing_keys union all select value from service_secrets`,
  );
  return rows.map((r) => r.v ?? "").join("\n");
}

async function sendTestEvent(webhookId: string) {
  const before = receiver.requests.length;
  const res = await api.request("POST", `/api/v1/webhooks/${webhookId}/test`, { token: partner.token });
  expect(res.status, res.text).toBe(202);
  const [request] = (await receiver.waitFor(before + 1)).slice(before);
  if (!request) throw new Error("no request");
  return request;
}

const signs = (raw: Buffer, secret: string, header: unknown) => createHmac("sha256", secret).update(raw).digest("hex") === header;

describe("sealed at rest", () => {
  it("a webhook secret, a rotated one, the token-signing private key and the CDN key are ciphertext in the database", async () => {
    const created = await api.request<{ id: string; secret: string }>("POST", "/api/v1/webhooks", {
      token: partner.token,
      body: { url: `${receiver.url}/sealed` },
    });
    expect(created.status, created.text).toBe(201);
    const rotated = await api.request<{ secret: string }>("POST", `/api/v1/webhooks/${created.body.id}/rotate-secret`, { token: partner.token });
    expect(rotated.status, rotated.text).toBe(200);

    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(row?.secret).toMatch(sealedByTestKey);
    expect(row?.previousSecret).toMatch(sealedByTestKey);
    const keys = await db().select().from(signingKeys);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.privateJwk).toEqual(expect.stringMatching(sealedByTestKey));
    // The C2PA root and claim-signing keys, made at first start.
    const provenance = await db().select().from(provenanceCertificates);
    expect(provenance.map((p) => p.kind).sort()).toEqual(["claim", "root"]);
    for (const p of provenance) expect(p.privateKey).toMatch(sealedByTestKey);
    const cdn = await db().select().from(serviceSecrets).where(eq(serviceSecrets.name, "cdn-url-signing"));
    expect(cdn[0]?.value).toMatch(sealedByTestKey);

    const everything = await storedSecretText();
    expect(everything).not.toContain(created.body.secret);
    expect(everything).not.toContain(rotated.body.secret);
    expect(everything).not.toContain(service.runtime.ctx.cdnSecret);
    expect(everything).not.toMatch(/"d"\s*:/); // an Ed25519 JWK's private member
  });

  it("deliveries are still signed with the plaintext secrets (current and previous)", async () => {
    const created = await api.request<{ id: string; secret: string }>("POST", "/api/v1/webhooks", {
      token: partner.token,
      body: { url: `${receiver.url}/signed` },
    });
    const rotated = await api.request<{ secret: string }>("POST", `/api/v1/webhooks/${created.body.id}/rotate-secret`, { token: partner.token });
    const request = await sendTestEvent(created.body.id);
    expect(signs(request.raw, rotated.body.secret, request.headers["x-svc-signature"])).toBe(true);
    expect(signs(request.raw, created.body.secret, request.headers["x-svc-signature-previous"])).toBe(true);
  });
});

describe("legacy plaintext and key rotation", () => {
  it("plaintext written before sealing is read as is, then sealed by the reseal pass", async () => {
    const legacySecret = `whsec_${randomBytes(16).toString("hex")}`;
    await db()
      .insert(webhookEndpoints)
      .values({ id: "wh_legacy", orgId: partner.orgId, url: `${receiver.url}/legacy`, events: ["*"], secret: legacySecret });
    await db().insert(serviceSecrets).values({ name: "legacy-test", value: "plain-service-secret" });
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    await db()
      .insert(signingKeys)
      .values({ kid: "key_legacy", alg: "EdDSA", publicJwk: publicKey.export({ format: "jwk" }), privateJwk: privateKey.export({ format: "jwk" }) });

    // Readable before resealing: the delivery is signed with the legacy secret.
    const before = await sendTestEvent("wh_legacy");
    expect(signs(before.raw, legacySecret, before.headers["x-svc-signature"])).toBe(true);
    const store = new KeyStore(db(), service.runtime.ctx.keys.settings, service.runtime.ctx.secretBox);
    await store.init();
    expect(store.jwks().keys.map((k) => k.kid)).toContain("key_legacy");

    expect(await resealStoredSecrets(db(), service.runtime.ctx.secretBox)).toBe(3);
    const everything = await storedSecretText();
    expect(everything).not.toContain(legacySecret);
    expect(everything).not.toContain("plain-service-secret");
    const [legacy] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, "wh_legacy"));
    expect(legacy?.secret).toMatch(sealedByTestKey);

    const after = await sendTestEvent("wh_legacy");
    expect(signs(after.raw, legacySecret, after.headers["x-svc-signature"])).toBe(true);
    expect(await resealStoredSecrets(db(), service.runtime.ctx.secretBox)).toBe(0);
  });

  it("after rotating the key, the previous one opens old values until the reseal pass moves them to the new key", async () => {
    const created = await api.request<{ id: string; secret: string }>("POST", "/api/v1/webhooks", {
      token: partner.token,
      body: { url: `${receiver.url}/rotation` },
    });
    const newKey = randomBytes(32);
    const rotatedBox = createSecretBox({ current: newKey, previous: [TEST_SECRETS_KEY] });
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(rotatedBox.open(row?.secret ?? "")).toBe(created.body.secret);

    expect(await resealStoredSecrets(db(), rotatedBox)).toBeGreaterThan(0);
    const newOnly = createSecretBox({ current: newKey });
    for (const r of await db().select().from(webhookEndpoints)) {
      expect(r.secret).toMatch(new RegExp(`^v1:${keyIdOf(newKey)}:`));
      newOnly.open(r.secret);
    }
    const [moved] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(newOnly.open(moved?.secret ?? "")).toBe(created.body.secret);
    for (const p of await db().select().from(provenanceCertificates)) expect(newOnly.open(p.privateKey)).toBeTruthy();
    // The service still holding only the old key can no longer open it: the old key may be retired
    // only once every instance has the new one.
    expect(() => service.runtime.ctx.secretBox.open(moved?.secret ?? "")).toThrow(/not configured/);
    // Put things back for the service under test.
    await resealStoredSecrets(db(), createSecretBox({ current: TEST_SECRETS_KEY, previous: [newKey] }));
  });
});
