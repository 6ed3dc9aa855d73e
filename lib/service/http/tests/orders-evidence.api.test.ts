// Signed evidence of each delivery, over HTTP: every photo of `photos.delivered` carries its
// verification record as a JWS signed with the service's token key (kid in the published JWKS);
// GET /orders/{id}/photos/{photo_id}/evidence answers the same JWS (orders:read, other
// organisations 404). It verifies with the JWKS in both SDKs — the TypeScript one (WebCrypto) and
// the Python one (pure-Python Ed25519, run through python3) — and with jose, and fails in both
// SDKs once one byte of the photo changes. The JWS is stored as made: the photo records, the
// order's ZIP (evidence/{photo_id}.jws beside a JWKS snapshot) and the evidence route carry the
// same bytes, and after the operator rotates the keys the old JWS still verifies against the live
// JWKS, the route answers it unchanged, and new deliveries are signed with the new key.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvidenceVerificationError, verifyEvidence, type Jwks } from "@/clients/typescript/src/index";
import { makePhoto } from "@/lib/demo/make-photo";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner, sendTaskPhotoFromSouth, type OrderPartner } from "./orders-client";
import { createZoomer } from "./photos";
import { pollUntil } from "./poll-until";
import { Receiver } from "./receiver";

let service: TestService;
let api: TestClient;
let receiver: Receiver;
let scratch: string;

beforeAll(async () => {
  service = await startTestService({ fulfilment: { weatherUrl: null, analyserUrl: null, localAnalyser: null } }, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
  scratch = mkdtempSync(join(tmpdir(), "pm-evidence-"));
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  rmSync(scratch, { recursive: true, force: true });
});

const PYTHON_SRC = resolve(process.cwd(), "clients/python/src");

/** The Python client's verify_evidence, as a reader would call it; "ok <photo_id>" or the error. */
function pythonVerify(evidence: string, jwks: Jwks, photo: Buffer): string {
  const files = { evidence: join(scratch, "evidence.txt"), jwks: join(scratch, "jwks.json"), photo: join(scratch, "photo.jpg") };
  writeFileSync(files.evidence, evidence);
  writeFileSync(files.jwks, JSON.stringify(jwks));
  writeFileSync(files.photo, photo);
  const code = [
    "import json, sys",
    "from photo_missions import verify_evidence, EvidenceVerificationError",
    "evidence, jwks, photo = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), open(sys.argv[3], 'rb').read()",
    "try:",
    "    print('ok', verify_evidence(evidence, jwks, photo=photo)['photo_id'])",
    "except EvidenceVerificationError as error:",
    "    print('refused', error)",
  ].join("\n");
  const run = spawnSync("python3", ["-c", code, files.evidence, files.jwks, files.photo], {
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", PYTHONPATH: PYTHON_SRC, PYTHONDONTWRITEBYTECODE: "1" },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim();
}

describe("signed evidence", () => {
  it("signs each delivered photo's record with the JWKS key; both SDKs verify it, and refuse it once one byte of the photo changes", async () => {
    const partner = await orderPartner(api);
    await api.request("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey });
    const target = { lat: 20.05, lng: 30.05 };
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"] },
      locations: [{ location_id: "loc_ev", name: "Evidence Hall", coordinates: target }],
      delivery: { webhook_url: `${receiver.url}/delivered` },
    });
    await confirm(api, partner.apiKey, order.id);
    const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
    const bytes = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 9100 });

    const zoomer = await createZoomer(api);
    const list = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, {
      token: zoomer.token,
    });
    const taskId = list.body.data[0]?.id ?? "";
    await api.request("POST", `/api/v1/field/assignments/${taskId}/take`, { token: zoomer.token });
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "front.jpg");
    form.append("device_position", `${camera.lat + 0.0001},${camera.lng},8`);
    expect(
      (
        await fetch(`${service.url}/api/v1/field/assignments/${taskId}/photo`, {
          method: "POST",
          headers: { authorization: `Bearer ${zoomer.token}` },
          body: form,
        })
      ).status,
    ).toBe(202);

    const [delivered] = await receiver.waitFor(1, "photos.delivered", 30_000);
    const photo = (delivered?.json.data as { photos: { photo_id: string; evidence: string }[] }).photos[0];
    if (!photo) throw new Error("not delivered");
    const jwks = (await api.request<Jwks>("GET", "/.well-known/jwks.json")).body;

    // The TypeScript SDK (WebCrypto Ed25519).
    const record = await verifyEvidence(photo.evidence, { jwks, photo: bytes, issuer: service.url });
    expect(record).toMatchObject({
      photo_id: photo.photo_id,
      order_id: order.id,
      location_id: "loc_ev",
      angle: "front",
      sha256: createHash("sha256").update(bytes).digest("hex"),
      verification: "approved",
    });
    const byCheck = Object.fromEntries(record.checks.map((c) => [c.check, c]));
    expect(Object.keys(byCheck).sort()).toEqual([
      "angle_match",
      "authenticity",
      "brand_match",
      "location_match",
      "minimum_crowd",
      "obstruction",
      "quality",
      "time_of_day",
    ]);
    expect(byCheck.location_match).toMatchObject({ status: "passed", threshold: 65 });
    expect(typeof byCheck.location_match?.value).toBe("number");
    expect(byCheck.authenticity?.signals).toEqual(
      expect.arrayContaining([expect.objectContaining({ signal: "device_position", status: "passed", threshold: 108 })]),
    );
    expect(record.positions.target).toEqual(target);
    expect(record.positions.exif?.lat).toBeCloseTo(camera.lat, 5);
    expect(record.positions.device).toEqual({ lat: camera.lat + 0.0001, lng: camera.lng, accuracy_m: 8 });
    expect(record.times.captured_at).not.toBeNull();
    expect(record.times.received_at).not.toBeNull();
    // And by jose, against the JWKS, as any JWT library would.
    const { protectedHeader } = await jwtVerify(photo.evidence, createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]), {
      typ: "photo-evidence+jwt",
      issuer: service.url,
    });
    expect(jwks.keys.map((k) => k.kid)).toContain(protectedHeader.kid);

    // One byte of the photo changed: refused by both SDKs.
    const changed = Buffer.from(bytes);
    changed[changed.length - 100] = (changed[changed.length - 100] ?? 0) ^ 0x01;
    await expect(verifyEvidence(photo.evidence, { jwks, photo: changed })).rejects.toThrow(EvidenceVerificationError);
    await expect(verifyEvidence(photo.evidence, { jwks, photo: changed })).rejects.toThrow(/SHA-256/);
    expect(pythonVerify(photo.evidence, jwks, bytes)).toBe(`ok ${photo.photo_id}`);
    expect(pythonVerify(photo.evidence, jwks, changed)).toMatch(/^refused .*SHA-256/);
    // A record altered after signing is refused too.
    const [h, p, s] = photo.evidence.split(".");
    const altered = Buffer.from(JSON.stringify({ ...record, photo_id: "img_other" })).toString("base64url");
    await expect(verifyEvidence(`${h}.${altered}.${s}`, { jwks })).rejects.toThrow(/signature/);
    expect(pythonVerify(`${h}.${altered}.${s}`, jwks, bytes)).toMatch(/^refused .*signature/);
    expect(p).toBeTruthy();

    // The same JWS at the evidence route, for the partner only.
    const evidence = await pollUntil(
      () =>
        api.request<{ photo_id: string; evidence: string; record: Record<string, unknown>; jwks_uri: string }>(
          "GET",
          `${ORDERS}/orders/${order.id}/photos/${photo.photo_id}/evidence`,
          { token: partner.apiKey },
        ),
      (r) => r.status === 200,
      10_000,
      100,
    );
    expect(evidence.body).toMatchObject({ photo_id: photo.photo_id, evidence: photo.evidence, jwks_uri: `${service.url}/.well-known/jwks.json` });
    expect(evidence.body.record.sha256).toBe(record.sha256);
    const other = await orderPartner(api);
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}/photos/${photo.photo_id}/evidence`, { token: other.apiKey }), 404, "not_found");
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}/photos/img_nope/evidence`, { token: partner.apiKey }), 404, "not_found");
  }, 120_000);
});

interface DeliveredRecord {
  photo_id: string;
  evidence: string;
}

/** One order of one photo, placed, shot 30 m south of `target` and delivered; the `photos.delivered` record and the bytes sent. */
async function deliverOne(partner: OrderPartner, { target, seed, path }: { target: { lat: number; lng: number }; seed: number; path: string }) {
  const order = await createOrder(api, partner.apiKey, {
    requirements: { angles: ["front"] },
    locations: [{ location_id: "loc_tr", name: "Travelling Hall", coordinates: target }],
    delivery: { webhook_url: `${receiver.url}/${path}` },
  });
  await confirm(api, partner.apiKey, order.id);
  const bytes = await sendTaskPhotoFromSouth(api, target, seed);
  const delivered = await pollUntil(
    async () => receiver.of("photos.delivered").find((d) => d.path === `/${path}`),
    (d) => d !== undefined,
    30_000,
    50,
  );
  const photo = (delivered?.json.data as { order_id: string; photos: DeliveredRecord[] } | undefined)?.photos[0];
  if (!photo) throw new Error("not delivered");
  expect((delivered?.json.data as { order_id: string }).order_id).toBe(order.id);
  return { order, photo, bytes };
}

const jwksOf = async () => (await api.request<Jwks>("GET", "/.well-known/jwks.json")).body;
const localSet = (jwks: Jwks) => createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]);

describe("evidence that travels", () => {
  it("the stored JWS is in the photo records and the order's ZIP (with a JWKS snapshot); after a key rotation it still verifies, the route answers it byte for byte, and new deliveries use the new key", async () => {
    const partner = await orderPartner(api);
    await api.request("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey });
    const first = await deliverOne(partner, { target: { lat: 21.05, lng: 31.05 }, seed: 9200, path: "first" });

    // The photo records carry the JWS `photos.delivered` carried.
    const records = (await api.request<{ data: DeliveredRecord[] }>("GET", `${ORDERS}/orders/${first.order.id}/photos`, { token: partner.apiKey })).body.data;
    expect(records).toEqual([expect.objectContaining({ photo_id: first.photo.photo_id, evidence: first.photo.evidence })]);

    // The ZIP: evidence/{photo_id}.jws, the same bytes, and evidence/jwks.json that verifies it (jose, and the SDK with the photo from the same ZIP).
    const res = await fetch(`${service.url}${ORDERS}/orders/${first.order.id}/photos.zip`, { headers: { authorization: `Bearer ${partner.apiKey}` } });
    expect(res.status).toBe(200);
    const zipFile = join(scratch, "order.zip");
    writeFileSync(zipFile, Buffer.from(await res.arrayBuffer()));
    const read = (entry: string) => execFileSync("unzip", ["-p", zipFile, entry]);
    const zipped = read(`evidence/${first.photo.photo_id}.jws`).toString("utf8");
    expect(zipped).toBe(first.photo.evidence);
    const snapshot = JSON.parse(read("evidence/jwks.json").toString("utf8")) as Jwks;
    const before = await jwtVerify(zipped, localSet(snapshot), { typ: "photo-evidence+jwt", issuer: service.url });
    expect(before.payload).toMatchObject({ photo_id: first.photo.photo_id, sha256: createHash("sha256").update(first.bytes).digest("hex") });
    const metadata = JSON.parse(read("metadata.json").toString("utf8")) as { photos: { photo_id: string; file: string; evidence: string }[] };
    expect(metadata.photos).toEqual([expect.objectContaining({ photo_id: first.photo.photo_id, evidence: `evidence/${first.photo.photo_id}.jws` })]);
    const zippedPhoto = read(metadata.photos[0]?.file ?? "");
    await expect(verifyEvidence(zipped, { jwks: snapshot, photo: zippedPhoto, issuer: service.url })).resolves.toMatchObject({
      photo_id: first.photo.photo_id,
    });
    const oldKid = before.protectedHeader.kid ?? "";
    expect(oldKid).not.toBe("");

    // The operator rotates the keys.
    const rotated = await api.request<{ signing_kid: string; retired: string[]; keys: { kid: string; retired_at: string | null; signing: boolean }[] }>(
      "POST",
      "/api/admin/v1/keys/rotate",
      { token: ADMIN_TOKEN },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.retired).toContain(oldKid);
    expect(rotated.body.signing_kid).not.toBe(oldKid);
    expect(rotated.body.keys.find((k) => k.kid === oldKid)).toMatchObject({ signing: false, retired_at: expect.any(String) });
    expect((await api.request("POST", "/api/admin/v1/keys/rotate")).status).toBe(401);

    // The retired key is still published: the old JWS verifies against the live JWKS; the route and the records answer it byte for byte.
    const live = await jwksOf();
    expect(live.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, rotated.body.signing_kid]));
    await expect(jwtVerify(first.photo.evidence, localSet(live), { typ: "photo-evidence+jwt", issuer: service.url })).resolves.toMatchObject({
      protectedHeader: { kid: oldKid },
    });
    await expect(verifyEvidence(first.photo.evidence, { jwks: live, photo: first.bytes, issuer: service.url })).resolves.toMatchObject({
      photo_id: first.photo.photo_id,
    });
    const route = await api.request<{ evidence: string; record: Record<string, unknown> }>(
      "GET",
      `${ORDERS}/orders/${first.order.id}/photos/${first.photo.photo_id}/evidence`,
      { token: partner.apiKey },
    );
    expect(route.status).toBe(200);
    expect(route.body.evidence).toBe(first.photo.evidence);
    expect(route.body.record).toMatchObject({ photo_id: first.photo.photo_id, iss: service.url });
    const again = (await api.request<{ data: DeliveredRecord[] }>("GET", `${ORDERS}/orders/${first.order.id}/photos`, { token: partner.apiKey })).body.data;
    expect(again[0]?.evidence).toBe(first.photo.evidence);

    // A new delivery is signed with the new key (and verifies against the live JWKS, not against the old snapshot).
    const second = await deliverOne(partner, { target: { lat: 22.05, lng: 32.05 }, seed: 9300, path: "second" });
    const after = await jwtVerify(second.photo.evidence, localSet(await jwksOf()), { typ: "photo-evidence+jwt", issuer: service.url });
    expect(after.protectedHeader.kid).toBe(rotated.body.signing_kid);
    await expect(jwtVerify(second.photo.evidence, localSet(snapshot), { typ: "photo-evidence+jwt" })).rejects.toThrow();
    const listed = (await api.request<{ signing_kid: string; keys: { kid: string }[] }>("GET", "/api/admin/v1/keys", { token: ADMIN_TOKEN })).body;
    expect(listed.signing_kid).toBe(rotated.body.signing_kid);
    expect(listed.keys.map((k) => k.kid).sort()).toEqual(live.keys.map((k) => k.kid).sort());
  }, 180_000);
});
