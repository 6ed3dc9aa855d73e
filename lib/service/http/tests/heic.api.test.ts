// HEIC/HEIF from phones (the iPhone's default) through both doors, over real HTTP: multipart
// (POST /missions/{id}/submissions, POST /field/assignments/{id}/photo) and tus
// (/field/uploads). The original is kept and served byte for byte as image/heic, its EXIF (place,
// time, direction) read, its thumbnail and preview are JPEGs, QA approves it in a mission, an
// order task's HEIC is verified and delivered, and a HEIC whose header claims a bomb's size is
// refused before anything is decoded.
// The HEICs are made at test time (lib/testing/heic-fixture.ts: exiftool + heif-enc, never
// committed): for missions from the corpus's real camera file DSCN0010.jpg (Nikon COOLPIX P6000)
// given an iPhone's tags, a place in the mission and the time of the test; for the order from the
// demo photo maker's shot (its EXIF as the fulfilment tests write it).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { sniffImageType } from "@/lib/photos/sniff-image-type";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { heicFromJpeg, withClaimedSize } from "@/lib/testing/heic-fixture";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer, submitPhotos, waitForDecision } from "./photos";
import { Receiver } from "./receiver";
import { startWeatherStandIn, type WeatherStandIn } from "./weather-stand-in";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const HEIC = { name: "IMG_4032.HEIC", type: "image/heic" };
/** Inside client.ts's square() (Florence). */
const PLACE = { lat: 43.7705, lng: 11.2575 };

interface ImageRecord {
  url: string;
  thumbnail_url: string | null;
  preview_url: string | null;
  content_type: string;
  sha256: string;
  width: number;
  height: number;
  exif: { make: string; model: string; captured_at: string; gps: { lat: number; lng: number; direction_deg: number } };
  qa: { check: string; passed: boolean; value: unknown }[];
}

let service: TestService;
let api: TestClient;
let receiver: Receiver;
let weather: WeatherStandIn;
let workDir: string;

beforeAll(async () => {
  weather = await startWeatherStandIn((query) => {
    const day = query.get("start_date") ?? "";
    const time = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`);
    return { time, temperature_2m: time.map(() => 18), weather_code: time.map(() => 1) };
  });
  // The OCR analyser is configured so order verification hands the analysers a decoded HEIC.
  service = await startTestService(
    {
      rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 },
      uploads: { maxFileBytes: 12 * 1024 * 1024, maxPhotos: 5, maxPixels: 40_000_000 },
      fulfilment: { weatherUrl: weather.url, analyserUrl: null, localAnalyser: "ocr" },
    },
    { worker: true },
  );
  api = new TestClient(service);
  receiver = await Receiver.start();
  workDir = await mkdtemp(join(tmpdir(), "heic-api-"));
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  await weather.close();
  await rm(workDir, { recursive: true, force: true });
});

/** An iPhone-like HEIC of the Nikon's picture, taken now at `PLACE`, facing `directionDeg`; each call's bytes differ (its time). */
let shots = 0;
async function iphoneHeic(directionDeg: number): Promise<Buffer> {
  const capturedAt = new Date(Date.now() - 60_000 - shots++ * 1000);
  return heicFromJpeg(await readFile(corpusFile("jpg/gps/DSCN0010.jpg")), { ...PLACE, directionDeg, capturedAt });
}

async function expectJpegRendition(url: string | null) {
  if (!url) throw new Error("no rendition URL");
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toBe("image/jpeg");
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(sniffImageType(bytes).kind).toBe("jpeg");
  expect((await sharp(bytes).metadata()).exif).toBeUndefined(); // no GPS in renditions
}

/** The approved submission's one image: HEIC kept and served byte for byte, EXIF read, JPEG renditions. */
async function expectApprovedHeic(token: string, submissionId: string, sent: Buffer, directionDeg: number): Promise<ImageRecord> {
  const decided = await waitForDecision(api, token, submissionId, 30_000);
  expect(decided.reasons).toEqual([]);
  expect(decided.status).toBe("approved");
  const image = decided.images[0] as unknown as ImageRecord;
  expect(image).toMatchObject({ content_type: "image/heic", sha256: sha256(sent), width: 640, height: 480 });
  expect(image.exif).toMatchObject({ make: "Apple", model: "iPhone 15 Pro" });
  expect(image.exif.gps.lat).toBeCloseTo(PLACE.lat, 4);
  expect(image.exif.gps.lng).toBeCloseTo(PLACE.lng, 4);
  expect(image.exif.gps.direction_deg).toBeCloseTo(directionDeg, 1);
  expect(Date.now() - Date.parse(image.exif.captured_at)).toBeLessThan(10 * 60_000);
  expect(image.qa.find((c) => c.check === "sharpness")?.passed).toBe(true);
  expect(image.qa.find((c) => c.check === "exposure")?.passed).toBe(true);
  const original = await fetch(image.url);
  expect(original.headers.get("content-type")).toBe("image/heic");
  expect(original.headers.get("content-disposition")).toMatch(/\.heic"$/);
  expect(sha256(new Uint8Array(await original.arrayBuffer()))).toBe(sha256(sent));
  await expectJpegRendition(image.thumbnail_url);
  await expectJpegRendition(image.preview_url);
  return image;
}

describe.skipIf(!HAS_CORPUS)("HEIC through both doors", () => {
  let partner: Awaited<ReturnType<TestClient["partner"]>>;
  let zoomer: { id: string; token: string };
  beforeAll(async () => {
    partner = await api.partner();
    zoomer = await createZoomer(api);
  });

  it("multipart: a HEIC with GPS makes a submission, QA approves it, the original downloads byte-identical and exports as .heic", async () => {
    const mission = await api.createMission(partner.token);
    const bytes = await iphoneHeic(75);
    const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes, ...HEIC }], { angle: "front" });
    expect(res.status, res.text).toBe(202);
    await expectApprovedHeic(partner.token, String(res.body.id), bytes, 75);

    const zip = Buffer.from(
      await (await fetch(`${service.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } })).arrayBuffer(),
    );
    const zipPath = join(workDir, "heic.zip");
    await writeFile(zipPath, zip);
    const entry =
      execFileSync("zipinfo", ["-1", zipPath])
        .toString()
        .trim()
        .split("\n")
        .find((n) => n.startsWith("images/")) ?? "";
    expect(entry).toMatch(/\.heic$/);
    expect(sha256(execFileSync("unzip", ["-p", zipPath, entry]))).toBe(sha256(bytes));
  }, 60_000);

  it("tus: a HEIC sent with creation-with-upload makes a submission that QA approves", async () => {
    const mission = await api.createMission(partner.token);
    const bytes = await iphoneHeic(210);
    const metadata = Object.entries({ target: mission.id, angle: "overview", filename: HEIC.name })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
      .join(",");
    const created = await fetch(`${service.url}/api/v1/field/uploads`, {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        authorization: `Bearer ${zoomer.token}`,
        "content-type": "application/offset+octet-stream",
        "upload-length": String(bytes.length),
        "upload-metadata": metadata,
      },
      body: new Uint8Array(bytes),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const submissionId = created.headers.get("submission-id") ?? "";
    expect(submissionId).toMatch(/^sub_/);
    await expectApprovedHeic(partner.token, submissionId, bytes, 210);
  }, 60_000);

  it("the corpus's HEIF (no GPS) is taken, decoded, and rejected only for what it lacks", async () => {
    const mission = await api.createMission(partner.token);
    const bytes = await readFile(corpusFile("heic/samplefilehub.heif"));
    const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes, name: "sample.heif", type: "image/heif" }]);
    expect(res.status, res.text).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(res.body.id), 30_000);
    expect(decided.status).toBe("rejected");
    const qa = (decided.images[0] as unknown as ImageRecord).qa;
    expect(qa.find((c) => c.check === "decodable")?.passed).toBe(true);
    expect(qa.find((c) => c.check === "gps_present")?.passed).toBe(false);
    // Measured from the decoded pixels: 640×426, its shorter side the figure.
    expect(qa.find((c) => c.check === "resolution")?.value).toBe(426);
  }, 60_000);

  it("a HEIC bomb (its header claims 100000×100000) is refused from the header, by both doors, storing nothing", async () => {
    const mission = await api.createMission(partner.token);
    const bomb = withClaimedSize(await iphoneHeic(10), 100_000, 100_000);
    const multipart = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: bomb, ...HEIC }]);
    expectProblem(multipart, 413, "too_many_pixels");
    expect(String(multipart.body.detail)).toMatch(/100000×100000/);
    const created = await fetch(`${service.url}/api/v1/field/uploads`, {
      method: "POST",
      headers: {
        "tus-resumable": "1.0.0",
        authorization: `Bearer ${zoomer.token}`,
        "content-type": "application/offset+octet-stream",
        "upload-length": String(bomb.length),
        "upload-metadata": `target ${Buffer.from(mission.id).toString("base64")}`,
      },
      body: new Uint8Array(bomb),
    });
    expect(created.status).toBe(413);
    expect(((await created.json()) as { code: string }).code).toBe("too_many_pixels");
    const listed = await api.request<{ data: unknown[] }>("GET", `/api/v1/missions/${mission.id}/submissions`, { token: partner.token });
    expect(listed.body.data).toHaveLength(0);
  }, 60_000);
});

/** A place where it is about noon now (so "daylight" holds whenever the test runs), 20° N. */
function noonPlace() {
  const now = new Date();
  let lng = (12 - now.getUTCHours() - now.getUTCMinutes() / 60) * 15;
  if (lng > 180) lng -= 360;
  if (lng < -180) lng += 360;
  return { lat: 20, lng };
}

describe("HEIC on an order task", () => {
  it("is verified and delivered: the partner gets the HEIC byte for byte and a JPEG thumbnail", async () => {
    const partner = await orderPartner(api);
    expect((await api.request("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey })).status).toBeLessThan(300);
    const target = noonPlace();
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"], time_of_day: "daylight" },
      locations: [{ location_id: "loc_heic", name: "HEIC Tower", coordinates: target }],
      delivery: { webhook_url: `${receiver.url}/delivered-heic` },
    });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");

    const zoomer = await createZoomer(api);
    const camera = { lat: target.lat - 30 / 111_320, lng: target.lng }; // 30 m south, facing north
    const tasks = await api.request<{ data: { id: string; angle: string }[] }>(
      "GET",
      `/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`,
      { token: zoomer.token },
    );
    const front = tasks.body.data.find((t) => t.angle === "front");
    if (!front) throw new Error("no front task");
    expect((await api.request("POST", `/api/v1/field/assignments/${front.id}/take`, { token: zoomer.token })).status).toBe(200);

    const heic = await heicFromJpeg(await makePhoto({ ...camera, accuracyM: 5, directionDeg: 1, capturedAt: new Date(), seed: 4032 }), null);
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(heic)], { type: HEIC.type }), HEIC.name);
    const sent = await fetch(`${service.url}/api/v1/field/assignments/${front.id}/photo`, {
      method: "POST",
      headers: { authorization: `Bearer ${zoomer.token}` },
      body: form,
    });
    expect(sent.status, await sent.clone().text()).toBe(202);

    const [delivered] = await receiver.waitFor(1, "photos.delivered", 60_000);
    if (!delivered) throw new Error("not delivered");
    const photo = (
      delivered.json.data as {
        photos: { url: string; thumbnail: string; metadata: { sha256: string; gps: { lat: number } }; verification: { status: string } }[];
      }
    ).photos[0];
    if (!photo) throw new Error("no photo in the delivery");
    expect(photo.verification.status).toBe("approved");
    expect(photo.metadata.sha256).toBe(sha256(heic));
    expect(photo.metadata.gps.lat).toBeCloseTo(camera.lat, 4);
    const original = await fetch(photo.url);
    expect(original.headers.get("content-type")).toBe("image/heic");
    expect(sha256(new Uint8Array(await original.arrayBuffer()))).toBe(sha256(heic));
    await expectJpegRendition(photo.thumbnail);
    const task = await api.request<{ status: string }>("GET", `/api/v1/field/assignments/${front.id}`, { token: zoomer.token });
    expect(task.body.status).toBe("verified");
    expect((await api.request<{ status: string }>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey })).body.status).toMatch(
      /fulfilled|in_progress/,
    );
  }, 120_000);
});
