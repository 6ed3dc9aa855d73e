import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { startTestService, type TestService } from "./harness";
import { TestClient, square } from "./client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

let service: TestService;
let api: TestClient;
let partner: Awaited<ReturnType<TestClient["partner"]>>;
let zoomer: { id: string; token: string };
let workDir: string;

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

interface ImageRecord {
  id: string;
  sha256: string;
  url: string;
  thumbnail_url: string | null;
  preview_url: string | null;
  byte_size: number;
}

async function missionWithPhotos(files: Uint8Array[]) {
  const created = await api.request<{ id: string }>("POST", "/api/v1/missions", {
    token: partner.token,
    body: { title: "Export me", bounds: square(11.255, 43.768), required_images: 50 },
  });
  const missionId = created.body.id;
  const ids: string[] = [];
  for (const bytes of files) {
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes }]);
    expect(res.status, res.text).toBe(202);
    ids.push(String(res.body.id));
  }
  for (const id of ids) await waitForDecision(api, partner.token, id);
  return { missionId, submissionIds: ids };
}

async function images(submissionId: string, token = partner.token) {
  const res = await api.request<{ data: ImageRecord[] }>("GET", `/api/v1/submissions/${submissionId}/images`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  // Polling for QA verdicts is chatty; the rate limits have their own suite.
  service = await startTestService(
    { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } },
    { worker: true },
  );
  api = new TestClient(service);
  partner = await api.partner();
  zoomer = await createZoomer(api);
  workDir = await mkdtemp(join(tmpdir(), "pm-export-"));
});
afterAll(async () => {
  await service.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("mission export", () => {
  it("streams a ZIP that an independent reader accepts, with every original byte-identical and a metadata index", async () => {
    const originals = [await photo({ seed: 21 }), await photo({ seed: 22 }), await photo({ blur: 5, seed: 23 })];
    const { missionId, submissionIds } = await missionWithPhotos(originals);
    const response = await fetch(`${service.url}/api/v1/missions/${missionId}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const body = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.length);
    const zipPath = join(workDir, "export.zip");
    await writeFile(zipPath, body);

    expect(execFileSync("unzip", ["-t", zipPath]).toString()).toMatch(/No errors detected/);
    const listing = JSON.parse(
      execFileSync("python3", [
        "-c",
        `import zipfile,json,hashlib,sys\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))`,
        zipPath,
      ]).toString(),
    ) as Record<string, string>;
    const names = Object.keys(listing);
    expect(names).toContain("metadata.json");
    expect(names.every((n) => !n.startsWith("/") && !n.split("/").includes(".."))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.values(listing).filter((h) => originals.some((o) => sha256(o) === h))).toHaveLength(3);

    const metadata = JSON.parse(execFileSync("unzip", ["-p", zipPath, "metadata.json"]).toString()) as {
      mission: { id: string };
      submissions: {
        id: string;
        status: string;
        images: { file: string; sha256: string; exif: { model: string | null }; qa: { check: string; passed: boolean }[] }[];
      }[];
    };
    expect(metadata.mission.id).toBe(missionId);
    expect(metadata.submissions.map((s) => s.id).sort()).toEqual([...submissionIds].sort());
    for (const submission of metadata.submissions) {
      for (const image of submission.images) {
        expect(listing[image.file]).toBe(image.sha256);
        expect(image.exif.model).toBe("Pixel 8");
        expect(image.qa.length).toBeGreaterThan(0);
      }
    }
    expect(metadata.submissions.some((s) => s.status === "rejected" && s.images[0]?.qa.some((q) => q.check === "sharpness" && !q.passed))).toBe(true);
  });

  it("is another organisation's 404", async () => {
    const { missionId } = await missionWithPhotos([]);
    const other = await api.partner();
    const res = await api.request("GET", `/api/v1/missions/${missionId}/export`, { token: other.token });
    expect(res.status).toBe(404);
  });
});

describe("CDN", () => {
  let image: ImageRecord;
  let bytes: Buffer;

  beforeAll(async () => {
    bytes = await photo({ seed: 31 });
    const { submissionIds } = await missionWithPhotos([bytes]);
    [image] = (await images(submissionIds[0] ?? "")) as [ImageRecord];
  });

  it("serves the original byte for byte with type, ETag, caching and nosniff", async () => {
    const res = await fetch(image.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("etag")).toBe(`"sha256-${sha256(bytes)}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+, immutable$/);
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bytes));
    const again = await fetch(image.url, { headers: { "if-none-match": res.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
  });

  it("serves byte ranges and refuses unsatisfiable ones", async () => {
    const part = await fetch(image.url, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await fetch(image.url, { headers: { range: "bytes=-10" } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const bad = await fetch(image.url, { headers: { range: `bytes=${bytes.length + 5}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
  });

  it("serves thumbnails without GPS, publicly cacheable", async () => {
    expect(image.thumbnail_url).toBeTruthy();
    const res = await fetch(image.thumbnail_url ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public, /);
    const { readExif } = await import("@/lib/photos/read-exif");
    const exif = await readExif(new Uint8Array(await res.arrayBuffer()));
    expect(exif.gps).toBeNull();
  });

  it("refuses a tampered, re-targeted or expired URL", async () => {
    const url = new URL(image.url);
    const tampered = new URL(url);
    tampered.searchParams.set("sig", `${url.searchParams.get("sig")?.slice(0, -2)}xx`);
    expect((await fetch(tampered)).status).toBe(403);
    const stretched = new URL(url);
    stretched.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    expect((await fetch(stretched)).status).toBe(403);
    const otherVariant = new URL(image.url.replace("/original?", "/preview?"));
    expect((await fetch(otherVariant)).status).toBe(403);
    const unsigned = new URL(url.pathname, url.origin);
    expect((await fetch(unsigned)).status).toBe(403);

    const { signImageUrl } = await import("@/lib/service/cdn/signed-url");
    const expired = signImageUrl(image.id, "original", {
      secret: service.runtime.ctx.cdnSecret,
      cdnUrl: `${service.url}/cdn`,
      ttlSeconds: 60,
      now: Date.now() - 10 * 60_000,
    });
    const res = await fetch(expired);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("url_expired");
  });
});

describe.skipIf(!HAS_CORPUS)("real camera files", () => {
  it("keeps a Nikon original byte for byte through upload, download and export, and reads its EXIF", async () => {
    const bytes = readFileSync(corpusFile("jpg/gps/DSCN0010.jpg"));
    const created = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token: partner.token,
      body: { title: "Arezzo", bounds: square(11.88, 43.46, 0.02), required_images: 5 },
    });
    const res = await submitPhotos(api, zoomer.token, created.body.id, [{ bytes, name: "DSCN0010.jpg" }]);
    expect(res.status).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    // An old photo: taken in 2008, long before the mission existed.
    expect(decided.status).toBe("rejected");
    expect(decided.reasons.join(" ")).toMatch(/before the mission was created/);
    const [record] = (await images(String(res.body.id))) as [ImageRecord & { exif: { model: string; gps: { lat: number; lng: number } } }];
    expect(record.exif.model).toBe("COOLPIX P6000");
    expect(record.exif.gps.lat).toBeCloseTo(43.467, 3);
    expect(record.sha256).toBe(sha256(bytes));
    const download = new Uint8Array(await (await fetch(record.url)).arrayBuffer());
    expect(sha256(download)).toBe(sha256(bytes));
    const zip = new Uint8Array(
      await (await fetch(`${service.url}/api/v1/missions/${created.body.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } })).arrayBuffer(),
    );
    const zipPath = join(workDir, "nikon.zip");
    await writeFile(zipPath, zip);
    const names = execFileSync("zipinfo", ["-1", zipPath]).toString().trim().split("\n");
    const imageEntry = names.find((n) => n.endsWith(".jpg")) ?? "";
    expect(sha256(execFileSync("unzip", ["-p", zipPath, imageEntry]))).toBe(sha256(bytes));
  });

  it("auto-orients derivatives: an EXIF orientation 6 photo gets portrait previews, its original untouched", async () => {
    const bytes = readFileSync(corpusFile("jpg/orientation/portrait_6.jpg"));
    const created = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token: partner.token,
      body: { title: "Rotated", bounds: square(), required_images: 5 },
    });
    const res = await submitPhotos(api, zoomer.token, created.body.id, [{ bytes }]);
    await waitForDecision(api, partner.token, String(res.body.id));
    const [record] = (await images(String(res.body.id))) as [ImageRecord & { width: number; height: number; exif: { orientation: number } }];
    expect(record.exif.orientation).toBe(6);
    // Stored 600×450 with "rotate 90° CW": displayed (and measured) 450×600.
    expect([record.width, record.height]).toEqual([450, 600]);
    const sharp = (await import("sharp")).default;
    const thumbnail = await sharp(Buffer.from(await (await fetch(record.thumbnail_url ?? "")).arrayBuffer())).metadata();
    expect((thumbnail.height ?? 0) > (thumbnail.width ?? 0)).toBe(true);
    expect(thumbnail.orientation ?? 1).toBe(1);
    expect(sha256(new Uint8Array(await (await fetch(record.url)).arrayBuffer()))).toBe(sha256(bytes));
  });

  it("refuses hostile and unsupported files cleanly, storing nothing", async () => {
    const created = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token: partner.token,
      body: { title: "Hostile", bounds: square(), required_images: 5 },
    });
    // A phone's video is not a photo: refused by its bytes, whatever its name (a HEIC is a photo: heic.api.test.ts).
    const video = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from("ftypqt  \0\0\0\0qt  ", "latin1"), Buffer.alloc(4000, 1)]);
    const refused = await submitPhotos(api, zoomer.token, created.body.id, [{ bytes: video, name: "IMG_0001.jpg" }]);
    expect(refused.status).toBe(415);
    expect(String(refused.body.detail)).toMatch(/video\/quicktime/);
    // These have valid JPEG headers and broken insides: intake takes them, QA rejects them.
    for (const file of ["jpg/invalid/image01137.jpg", "jpg/tests/35-empty.jpg", "jpg/tests/36-memory_error.jpg", "jpg/corrupted.jpg"]) {
      const res = await submitPhotos(api, zoomer.token, created.body.id, [{ bytes: readFileSync(corpusFile(file)) }]);
      expect(res.status, file).toBe(202);
      const decided = await waitForDecision(api, partner.token, String(res.body.id));
      expect(decided.status, file).toBe("rejected");
      if (file === "jpg/corrupted.jpg") expect(decided.reasons.join(" ")).toMatch(/could not be decoded/);
    }
  });
});
