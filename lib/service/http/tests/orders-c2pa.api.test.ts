// The C2PA-signed copy of a delivered photo, over HTTP: the photo record's provenance names the
// copy (signed CDN URL) and the trust anchor (public PEM); the official reader
// (@contentauth/c2pa-wasm, c2pa-rs in WebAssembly) validates the copy — Valid without the anchor,
// Trusted with it — and finds the verification assertion carrying this photo's evidence; the
// original is served byte for byte as sent. After a key rotation the claim certificate is a new
// one under the same root, and a new delivery's copy is again Trusted.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initSync, WasmReader } from "@contentauth/c2pa-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner, sendTaskPhotoFromSouth, type OrderPartner } from "./orders-client";
import { pollUntil } from "./poll-until";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService({ fulfilment: { weatherUrl: null, analyserUrl: null, localAnalyser: null } }, { worker: true });
  api = new TestClient(service);
  initSync({ module: readFileSync(join(process.cwd(), "node_modules/@contentauth/c2pa-wasm/pkg/c2pa_bg.wasm")) });
});
afterAll(() => service.close());

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

interface PhotoRecord {
  photo_id: string;
  url: string;
  evidence: string;
  metadata: { sha256: string };
  provenance: { c2pa_url: string; trust_anchor_url: string } | null;
}

async function deliverOne(partner: OrderPartner, target: { lat: number; lng: number }, seed: number): Promise<{ record: PhotoRecord; bytes: Buffer }> {
  const order = await createOrder(api, partner.apiKey, {
    requirements: { angles: ["front"] },
    locations: [{ location_id: "loc_c2pa", name: "Provenance Hall", coordinates: target }],
  });
  await confirm(api, partner.apiKey, order.id);
  const bytes = await sendTaskPhotoFromSouth(api, target, seed);
  const photos = await pollUntil(
    () => api.request<{ data: PhotoRecord[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey }),
    (r) => r.body.data.length === 1,
    60_000,
    100,
  );
  const record = photos.body.data[0];
  if (!record) throw new Error("not delivered");
  return { record, bytes };
}

const download = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

interface ReaderReport {
  validation_state: string;
  validation_status?: { code: string }[];
  active_manifest: string;
  manifests: Record<string, { assertions: { label: string; data: unknown }[]; signature_info?: { cert_serial_number?: string; issuer?: string } }>;
}

async function read(bytes: Uint8Array, trustAnchor?: string): Promise<ReaderReport> {
  const context = trustAnchor ? JSON.stringify({ trust: { trust_anchors: trustAnchor }, verify: { verify_trust: true } }) : undefined;
  const reader = await WasmReader.fromBytes("image/jpeg", bytes, context);
  return JSON.parse(reader.json()) as ReaderReport;
}

describe("the C2PA-signed copy", () => {
  it("the official reader validates it (Valid; Trusted with the service's root), it carries the verification, the original stays byte for byte; rotation renews the claim certificate", async () => {
    const partner = await orderPartner(api);
    const first = await deliverOne(partner, { lat: 23.05, lng: 33.05 }, 9400);
    const { provenance } = first.record;
    if (!provenance) throw new Error("no provenance in the photo record");
    expect(provenance.trust_anchor_url).toBe(`${service.url}/api/v1/auth/c2pa-root.pem`);

    // The original, as sent; the copy is another file.
    const original = await download(first.record.url);
    expect(sha256(original)).toBe(sha256(first.bytes));
    expect(first.record.metadata.sha256).toBe(sha256(first.bytes));
    const copy = await download(provenance.c2pa_url);
    expect(sha256(copy)).not.toBe(sha256(first.bytes));
    // The copy needs the signed URL, like the original.
    expect((await fetch(provenance.c2pa_url.replace(/sig=[^&]+/, "sig=forged"))).status).toBe(403);

    // Without the anchor: Valid (its signer is untrusted, nothing else is wrong).
    const untrusted = await read(copy);
    expect(untrusted.validation_state).toBe("Valid");
    expect((untrusted.validation_status ?? []).map((s) => s.code)).toEqual(["signingCredential.untrusted"]);
    // With the root from trust_anchor_url (public, PEM): Trusted.
    const anchorRes = await fetch(provenance.trust_anchor_url);
    expect(anchorRes.status).toBe(200);
    const anchor = await anchorRes.text();
    expect(anchor).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const trusted = await read(copy, anchor);
    expect(trusted.validation_state).toBe("Trusted");
    expect(trusted.validation_status ?? []).toEqual([]);
    // The verification result as an assertion: the evidence's claims and the JWS itself.
    const assertion = trusted.manifests[trusted.active_manifest]?.assertions.find((a) => a.label === "com.photo-missions.verification");
    const data = assertion?.data as
      { record: { photo_id: string; sha256: string; checks: { check: string }[]; positions: unknown; times: unknown }; evidence_jws: string } | undefined;
    expect(data?.evidence_jws).toBe(first.record.evidence);
    expect(data?.record).toMatchObject({ photo_id: first.record.photo_id, sha256: sha256(first.bytes) });
    expect(data?.record.checks.map((c) => c.check)).toContain("location_match");
    expect(data?.record.positions).toBeTruthy();
    // A changed byte in the copy's image data: no longer valid.
    const tampered = Uint8Array.from(copy);
    tampered[tampered.length - 200] = (tampered[tampered.length - 200] ?? 0) ^ 0x01;
    expect((await read(tampered, anchor)).validation_state).toBe("Invalid");

    // Rotation renews the claim certificate (new serial, same root); a new copy is Trusted with the same anchor.
    const before = trusted.manifests[trusted.active_manifest]?.signature_info?.cert_serial_number;
    const rotated = await api.request<{ c2pa_claim_certificate: { serial_number: string; not_after: string } }>("POST", "/api/admin/v1/keys/rotate", {
      token: ADMIN_TOKEN,
    });
    expect(rotated.status).toBe(200);
    const days = (Date.parse(rotated.body.c2pa_claim_certificate.not_after) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThanOrEqual(366);
    const second = await deliverOne(partner, { lat: 24.05, lng: 34.05 }, 9500);
    const secondCopy = await download(second.record.provenance?.c2pa_url ?? "");
    const report = await read(secondCopy, await (await fetch(second.record.provenance?.trust_anchor_url ?? "")).text());
    expect(report.validation_state).toBe("Trusted");
    const after = report.manifests[report.active_manifest]?.signature_info?.cert_serial_number;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    // The first copy still validates: its certificate travels inside it.
    expect((await read(copy, anchor)).validation_state).toBe("Trusted");
  }, 180_000);
});
