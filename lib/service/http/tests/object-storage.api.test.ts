// The service on S3-compatible storage (a real S3-protocol server on loopback, behind a proxy that
// can cut connections), and on local disk, end to end: intake, QA derivatives, CDN (Range, ETag),
// export — and what happens when the store fails part-way: a clear error, nothing half-recorded,
// no crash, the server keeps serving.
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { images, submissions } from "@/lib/db/schema";
import { runQa } from "@/lib/service/qa/run-qa";
import { ObjectNotFoundError } from "@/lib/service/storage/object-store";
import { S3ObjectStore } from "@/lib/service/storage/s3-store";
import { startCuttingProxy, startS3TestServer, type CuttingProxy, type S3TestServer } from "@/lib/testing/s3-test-server";
import { startTestService, type TestService } from "./harness";
import { TestClient } from "./client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const LIMITS = { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } };

let s3: S3TestServer;
let proxy: CuttingProxy;
let bucket: S3ObjectStore;
let workDir: string;

beforeAll(async () => {
  s3 = await startS3TestServer();
  proxy = await startCuttingProxy(s3.port);
  bucket = new S3ObjectStore(s3.storeConfig());
  workDir = await mkdtemp(join(tmpdir(), "pm-objstore-"));
});
afterAll(async () => {
  bucket.close();
  await proxy.close();
  await s3.close();
  await rm(workDir, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await bucket.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key ?? "");
}

/** A valid JPEG made large by bytes after its end marker (decoders ignore them). */
async function largePhoto(seed: number, extraBytes: number): Promise<Buffer> {
  return Buffer.concat([await photo({ seed }), randomBytes(extraBytes)]);
}

describe("on S3-compatible storage", () => {
  let service: TestService;
  let api: TestClient;
  let partner: Awaited<ReturnType<TestClient["partner"]>>;
  let zoomer: { id: string; token: string };

  beforeAll(async () => {
    // Through the proxy, which passes everything until a test tells it to cut.
    service = await startTestService({ ...LIMITS, storage: { kind: "s3", ...s3.storeConfig({ endpoint: proxy.endpoint }) } }, { worker: true });
    api = new TestClient(service);
    partner = await api.partner();
    zoomer = await createZoomer(api);
  });
  afterAll(async () => {
    proxy.cutAfter(null);
    await service.close();
  });

  it("keeps the original byte for byte in the bucket, derivatives beside it, served by the CDN with Range and ETag, and exported", async () => {
    const mission = await api.createMission(partner.token, { required_images: 5 });
    const original = await photo({ seed: 41 });
    const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: original }]);
    expect(res.status, res.text).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    expect(decided.status).toBe("approved");

    const [row] = await service.runtime.ctx.db
      .select()
      .from(images)
      .where(eq(images.submissionId, String(res.body.id)));
    if (!row) throw new Error("no image row");
    expect(row.storageKey).toBe(`${partner.orgId}/${mission.id}/${row.id}/original.jpg`);
    const stored = await bucket.read(row.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(original));
    expect((await keysUnder(`${partner.orgId}/${mission.id}/${row.id}/`)).sort()).toEqual(
      ["original.jpg", "preview.jpg", "thumbnail.jpg"].map((f) => `${partner.orgId}/${mission.id}/${row.id}/${f}`),
    );

    const record = await api.request<{ data: { url: string; thumbnail_url: string | null }[] }>("GET", `/api/v1/submissions/${String(res.body.id)}/images`, {
      token: partner.token,
    });
    const url = record.body.data[0]?.url ?? "";
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(original));
    const etag = whole.headers.get("etag") ?? "";
    expect(etag).toBe(`"sha256-${sha256(original)}"`);
    const ranged = await fetch(url, { headers: { range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${original.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(original.subarray(100, 200))).toBe(true);
    expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);
    const thumb = await fetch(record.body.data[0]?.thumbnail_url ?? "");
    expect(thumb.status).toBe(200);
    expect((await thumb.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const exported = await fetch(`${service.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
    expect(exported.status).toBe(200);
    const zip = new Uint8Array(await exported.arrayBuffer());
    expect(Number(exported.headers.get("content-length"))).toBe(zip.length);
    const zipPath = join(workDir, "s3-export.zip");
    await writeFile(zipPath, zip);
    const hashes = JSON.parse(
      execFileSync("python3", [
        "-c",
        `import zipfile,json,hashlib,sys\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps([hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()]))`,
        zipPath,
      ]).toString(),
    ) as string[];
    expect(hashes).toContain(sha256(original));
  });

  it("an upload cut off by the store answers 503 storage_unavailable and records nothing: no submission, no object, no temp file", async () => {
    const mission = await api.createMission(partner.token);
    proxy.cutAfter(32 * 1024, "upstream");
    let res: Awaited<ReturnType<typeof submitPhotos>>;
    try {
      res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await largePhoto(42, 512 * 1024) }]);
    } finally {
      proxy.cutAfter(null);
    }
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe("storage_unavailable");
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.text).not.toMatch(/127\.0\.0\.1|photos\/|original\.jpg|bucket/i);
    expect(proxy.cuts).toBeGreaterThan(0);

    const listed = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${mission.id}/submissions`, { token: partner.token });
    expect(listed.body.meta.total).toBe(0);
    const after = await api.request<{ submissions: number }>("GET", `/api/v1/missions/${mission.id}`, { token: partner.token });
    expect(after.body.submissions).toBe(0);
    expect(await keysUnder(`${partner.orgId}/${mission.id}/`)).toEqual([]);
    expect(await readdir(join(service.runtime.ctx.config.dataDir, "tmp"))).toEqual([]);

    // The same upload goes through once the store is back.
    const again = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: 43 }) }]);
    expect(again.status, again.text).toBe(202);
  });

  it("an export whose store connection is cut mid-stream ends the response short, and the server keeps serving", async () => {
    const mission = await api.createMission(partner.token, { required_images: 10 });
    for (const seed of [51, 52, 53]) {
      const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await largePhoto(seed, 1024 * 1024) }]);
      expect(res.status, res.text).toBe(202);
    }
    proxy.cutAfter(300 * 1024, "downstream");
    let received = 0;
    let declared = 0;
    try {
      const response = await fetch(`${service.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
      expect(response.status).toBe(200);
      declared = Number(response.headers.get("content-length"));
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      await expect(
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received += value.length;
          }
        })(),
      ).rejects.toThrow();
    } finally {
      proxy.cutAfter(null);
    }
    expect(declared).toBeGreaterThan(3 * 1024 * 1024);
    expect(received).toBeLessThan(declared);
    const health = await fetch(`${service.url}/api/v1/missions/${mission.id}`, { headers: { authorization: `Bearer ${partner.token}` } });
    expect(health.status).toBe(200);
  });
});

describe("on local disk", () => {
  it("a photo removed under a running export ends the response short, and the server keeps serving", async () => {
    const service = await startTestService(LIMITS);
    try {
      const api = new TestClient(service);
      const partner = await api.partner();
      const zoomer = await createZoomer(api);
      const mission = await api.createMission(partner.token, { required_images: 10 });
      for (const seed of [61, 62, 63, 64]) {
        const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await largePhoto(seed, 1024 * 1024) }]);
        expect(res.status, res.text).toBe(202);
      }
      const response = await fetch(`${service.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
      expect(response.status).toBe(200);
      const declared = Number(response.headers.get("content-length"));
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      let received = (await reader.read()).value?.length ?? 0;
      // The archive is under way: remove every photo of the mission from the disk.
      await rm(join(service.runtime.ctx.config.dataDir, "photos", partner.orgId, mission.id), { recursive: true, force: true });
      await expect(
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received += value.length;
          }
        })(),
      ).rejects.toThrow();
      expect(received).toBeLessThan(declared);
      const again = await fetch(`${service.url}/api/v1/missions/${mission.id}`, { headers: { authorization: `Bearer ${partner.token}` } });
      expect(again.status).toBe(200);
      // The CDN answers 404 for a photo that is gone, not a server error.
      const listed = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/missions/${mission.id}/submissions`, { token: partner.token });
      const first = listed.body.data[0]?.id ?? "";
      const record = await api.request<{ data: { url: string }[] }>("GET", `/api/v1/submissions/${first}/images`, { token: partner.token });
      expect((await fetch(record.body.data[0]?.url ?? "")).status).toBe(404);
    } finally {
      await service.close();
    }
  });

  it("a photo missing from this instance's store is retried by QA, not rejected as undecodable", async () => {
    const service = await startTestService(LIMITS); // no worker: QA is run by hand below
    try {
      const api = new TestClient(service);
      const partner = await api.partner();
      const zoomer = await createZoomer(api);
      const mission = await api.createMission(partner.token);
      const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: 65 }) }]);
      expect(res.status, res.text).toBe(202);
      const submissionId = String(res.body.id);
      const { ctx } = service.runtime;
      const [row] = await ctx.db.select().from(images).where(eq(images.submissionId, submissionId));
      const original = await ctx.store.read(row?.storageKey ?? "");
      const chunks: Buffer[] = [];
      for await (const chunk of original) chunks.push(chunk as Buffer);
      await ctx.store.delete(row?.storageKey ?? "");

      // As on a machine whose disk does not have the photo: the job fails (and is retried later).
      await expect(runQa(ctx, submissionId)).rejects.toBeInstanceOf(ObjectNotFoundError);
      const [pending] = await ctx.db.select().from(submissions).where(eq(submissions.id, submissionId));
      expect(pending?.status).not.toBe("rejected");
      expect(pending?.reasons).toEqual([]);

      // Once the bytes are there again, the retry decides it on its merits.
      await ctx.store.putBuffer(row?.storageKey ?? "", Buffer.concat(chunks));
      await runQa(ctx, submissionId);
      const [decided] = await ctx.db.select().from(submissions).where(eq(submissions.id, submissionId));
      expect(decided?.status).toBe("approved");
      expect(JSON.stringify(decided?.reasons)).not.toMatch(/\//);
    } finally {
      await service.close();
    }
  });
});
