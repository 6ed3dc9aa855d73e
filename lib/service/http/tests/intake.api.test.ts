import { check as checkGeoJson } from "@placemarkio/check-geojson";
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./harness";
import { TestClient, square } from "./client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

let service: TestService;
let api: TestClient;
let partner: Awaited<ReturnType<TestClient["partner"]>>;
let zoomer: { id: string; token: string };

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function newMission(requiredImages = 10, extra: Record<string, unknown> = {}, token = partner.token) {
  const res = await api.request<{ id: string }>("POST", "/api/v1/missions", {
    token,
    body: { title: "Ponte Vecchio", bounds: square(11.255, 43.768), required_images: requiredImages, ...extra },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function submissionCount(missionId: string) {
  const res = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions?status=all`, { token: partner.token });
  return res.body.meta.total;
}

/** A JPEG whose header claims `width`×`height`: the SOF0 marker's dimension bytes are rewritten. */
function withClaimedSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; i++) {
    if (out[i] === 0xff && (out[i + 1] === 0xc0 || out[i + 1] === 0xc2)) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
  }
  throw new Error("no SOF marker");
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
});
afterAll(() => service.close());

describe("field intake", () => {
  it("accepts a JPEG, keeps its bytes and approves it", async () => {
    const missionId = await newMission();
    const bytes = await photo();
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes }], { angle: "front", note: "north side" });
    expect(res.status, res.text).toBe(202);
    expect(res.headers.get("location")).toBe(`${service.url}/api/v1/submissions/${String(res.body.id)}`);
    expect(res.body).toMatchObject({ status: "received", mission_id: missionId, zoomer_id: zoomer.id, image_count: 1, angle: "front", note: "north side" });
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    expect(decided.reasons).toEqual([]);
    expect(decided.status).toBe("approved");
    const image = decided.images[0] as {
      sha256: string;
      url: string;
      exif: { model: string; gps: { accuracy_m: number; direction_deg: number } };
      qa: { check: string; passed: boolean; value: unknown }[];
    };
    expect(image.sha256).toBe(sha256(bytes));
    expect(image.exif.model).toBe("Pixel 8");
    expect(image.exif.gps).toMatchObject({ accuracy_m: 5, direction_deg: 90 });
    expect(image.qa.map((c) => c.check)).toEqual([
      "decodable",
      "exif_present",
      "gps_present",
      "inside_bounds",
      "capture_time",
      "resolution",
      "sharpness",
      "exposure",
      "duplicate",
    ]);
    expect(image.qa.every((c) => c.passed)).toBe(true);
    const download = await fetch(image.url);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it("rejects a blurry and a dark photo with readable reasons and measured values", async () => {
    const missionId = await newMission();
    const res = await submitPhotos(api, zoomer.token, missionId, [
      { bytes: await photo({ blur: 6, seed: 3 }) },
      { bytes: await photo({ exposure: 0.12, seed: 4 }) },
    ]);
    expect(res.status).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    expect(decided.status).toBe("rejected");
    expect(decided.reasons.join("\n")).toMatch(/Photo 1: .*blurry/);
    expect(decided.reasons.join("\n")).toMatch(/Photo 2: .*too dark/);
    const sharpness = (decided.images[0] as { qa: { check: string; value: number; passed: boolean }[] }).qa.find((c) => c.check === "sharpness");
    expect(sharpness?.passed).toBe(false);
    expect(sharpness?.value).toBeLessThan(40);
    // The same, as codes and figures for a page in the zoomer's language; the English stays.
    expect(sharpness).toMatchObject({ code: "qa.blurry", params: { value: sharpness?.value, min: 40 } });
    const own = await api.request<{ reasons: string[]; reason_codes: { code: string; params: Record<string, unknown>; photo?: number }[] }>(
      "GET",
      `/api/v1/field/submissions/${String(res.body.id)}`,
      { token: zoomer.token },
    );
    expect(own.status).toBe(200);
    expect(own.body.reasons).toEqual(decided.reasons);
    expect(own.body.reason_codes).toHaveLength(decided.reasons.length);
    expect(own.body.reason_codes).toEqual(
      expect.arrayContaining([
        { code: "qa.blurry", params: { value: sharpness?.value, min: 40 }, photo: 1 },
        { code: "qa.too_dark", params: { value: expect.any(Number), min: 35 }, photo: 2 },
      ]),
    );
  });

  it("rejects photos outside the bounds, without GPS, without EXIF, and exact or near duplicates", async () => {
    const missionId = await newMission();
    const outside = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ lat: 43.8, lng: 11.3, seed: 41 }) }]);
    const noGps = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ lat: undefined, lng: undefined, seed: 42 }) }]);
    const noExif = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ withoutExif: true, seed: 43 }) }]);
    const original = await photo({ seed: 44 });
    const first = await submitPhotos(api, zoomer.token, missionId, [{ bytes: original }]);
    expect((await waitForDecision(api, partner.token, String(first.body.id))).status).toBe("approved");
    // The same zoomer sending it again is the same submission (one intake key); another zoomer's copy is a duplicate.
    const resent = await submitPhotos(api, zoomer.token, missionId, [{ bytes: original }]);
    expect(resent.status).toBe(202);
    expect(resent.body.id).toBe(first.body.id);
    const again = await submitPhotos(api, (await createZoomer(api)).token, missionId, [{ bytes: original }]);
    const near = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed: 44, accuracyM: 7 }) }]);
    const reasons = async (r: { body: Record<string, unknown> }) => {
      const d = await waitForDecision(api, partner.token, String(r.body.id));
      expect(d.status).toBe("rejected");
      return d.reasons.join(" ");
    };
    expect(await reasons(outside)).toMatch(/outside the mission area/);
    expect(await reasons(noGps)).toMatch(/no GPS position/);
    expect(await reasons(noExif)).toMatch(/no EXIF/);
    expect(await reasons(again)).toMatch(/same photo was already submitted/);
    expect(await reasons(near)).toMatch(/near-identical photo/);
  });

  it("applies the mission's own QA thresholds", async () => {
    const missionId = await newMission(10, { qa: { min_sharpness: 1 } });
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ blur: 6, seed: 51 }) }]);
    expect((await waitForDecision(api, partner.token, String(res.body.id))).status).toBe("approved");
    const mission = await api.request<{ qa: { min_sharpness: number; min_brightness: number } }>("GET", `/api/v1/missions/${missionId}`, {
      token: partner.token,
    });
    expect(mission.body.qa).toMatchObject({ min_sharpness: 1, min_brightness: 35 });
  });

  it("completes the mission when approved images reach required_images, then answers 409", async () => {
    const missionId = await newMission(2);
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed: 61 }) }, { bytes: await photo({ seed: 62 }) }]);
    expect((await waitForDecision(api, partner.token, String(res.body.id))).status).toBe("approved");
    const mission = await api.request<{ status: string; approved_images: number; completed_at: string | null; submissions: number }>(
      "GET",
      `/api/v1/missions/${missionId}`,
      { token: partner.token },
    );
    expect(mission.body).toMatchObject({ status: "completed", approved_images: 2, submissions: 1 });
    expect(mission.body.completed_at).not.toBeNull();
    const late = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed: 63 }) }]);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("mission_not_active");
    const events = await service.runtime.ctx.db.execute<{ type: string }>(
      // The outbox holds what happened, in order.
      (await import("drizzle-orm")).sql`select type from events where data::text like ${`%${missionId}%`} order by created_at, id`,
    );
    const types = (events as unknown as { rows: { type: string }[] }).rows.map((r) => r.type);
    expect(types).toEqual(["mission.created", "submission.received", "submission.approved", "mission.completed"]);
  });

  it("answers 409 for a cancelled mission and 404 for an unknown one", async () => {
    const missionId = await newMission();
    await api.request("POST", `/api/v1/missions/${missionId}/cancel`, { token: partner.token });
    expect((await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }])).status).toBe(409);
    expect((await submitPhotos(api, zoomer.token, "mission_nope", [{ bytes: await photo() }])).status).toBe(404);
  });
});

describe("intake refuses bad uploads and stores nothing", () => {
  let missionId: string;
  let before: string[];

  beforeAll(async () => {
    missionId = await newMission();
    before = await filesUnder(join(service.runtime.ctx.config.dataDir, "photos"));
  });

  const refused = async (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await submissionCount(missionId)).toBe(0);
    expect(await filesUnder(join(service.runtime.ctx.config.dataDir, "photos"))).toEqual(before);
    expect(await filesUnder(join(service.runtime.ctx.config.dataDir, "tmp"))).toEqual([]);
  };

  it("a PNG among JPEGs (type by bytes, not by name)", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await refused(await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }, { bytes: png, name: "x.jpg" }]), 415, "unsupported_image_type");
  });

  it("an HTML file named .jpg", async () => {
    await refused(
      await submitPhotos(api, zoomer.token, missionId, [{ bytes: Buffer.from("<html><script>alert(1)</script>"), name: "a.jpg" }]),
      415,
      "unsupported_image_type",
    );
  });

  it("a decompression bomb, refused from its header before decoding", async () => {
    const bomb = withClaimedSize(await photo({ width: 64, height: 64 }), 60_000, 60_000);
    await refused(await submitPhotos(api, zoomer.token, missionId, [{ bytes: bomb }]), 413, "too_many_pixels");
  });

  it("a file over the size cap", async () => {
    const big = Buffer.concat([await photo(), Buffer.alloc(service.runtime.ctx.config.uploads.maxFileBytes)]);
    await refused(await submitPhotos(api, zoomer.token, missionId, [{ bytes: big }]), 413, "file_too_large");
  });

  it("more photos than allowed", async () => {
    const one = await photo();
    const parts = Array.from({ length: service.runtime.ctx.config.uploads.maxPhotos + 1 }, () => ({ bytes: one }));
    await refused(await submitPhotos(api, zoomer.token, missionId, parts), 413, "too_many_photos");
  });

  it("no photos, a wrongly named part, an unknown angle, a non-multipart body", async () => {
    await refused(await submitPhotos(api, zoomer.token, missionId, []), 422, "validation_failed");
    await refused(await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }], {}, "file"), 422, "validation_failed");
    await refused(await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }], { angle: "sideways" }), 422, "validation_failed");
    await refused(
      await api.request("POST", `/api/v1/missions/${missionId}/submissions`, { token: zoomer.token, body: { photos: [] } }),
      415,
      "unsupported_media_type",
    );
  });

  it("partner credentials (no submissions:write)", async () => {
    await refused(await submitPhotos(api, partner.token, missionId, [{ bytes: await photo() }]), 403, "insufficient_scope");
  });
});

describe("reading submissions", () => {
  let missionId: string;

  beforeAll(async () => {
    missionId = await newMission();
    for (const seed of [71, 72, 73]) {
      const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ seed, blur: seed === 73 ? 6 : 0 }) }]);
      await waitForDecision(api, partner.token, String(res.body.id));
    }
  });

  it("lists as an envelope, filters by status and time", async () => {
    const all = await api.request<{ data: { status: string }[]; meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions`, {
      token: partner.token,
    });
    expect(all.body.meta.total).toBe(3);
    const rejected = await api.request<{ data: { status: string }[] }>("GET", `/api/v1/missions/${missionId}/submissions?status=rejected`, {
      token: partner.token,
    });
    expect(rejected.body.data.map((s) => s.status)).toEqual(["rejected"]);
    const future = await api.request<{ meta: { total: number } }>(
      "GET",
      `/api/v1/missions/${missionId}/submissions?since=${new Date(Date.now() + 60_000).toISOString()}`,
      { token: partner.token },
    );
    expect(future.body.meta.total).toBe(0);
    expect((await api.request("GET", `/api/v1/missions/${missionId}/submissions?status=lost`, { token: partner.token })).status).toBe(422);
    expect((await api.request("GET", `/api/v1/missions/${missionId}/submissions?per_page=101`, { token: partner.token })).status).toBe(422);
  });

  it("gives each listed submission its first photo's signed thumbnail, which the CDN serves", async () => {
    const list = await api.request<{ data: { id: string; thumbnail_url: string | null }[] }>("GET", `/api/v1/missions/${missionId}/submissions`, {
      token: partner.token,
    });
    expect(list.body.data).toHaveLength(3);
    for (const row of list.body.data) {
      const detail = await api.request<{ images: { position: number; thumbnail_url: string | null }[] }>("GET", `/api/v1/submissions/${row.id}`, {
        token: partner.token,
      });
      const first = detail.body.images.find((image) => image.position === 0);
      expect(row.thumbnail_url).not.toBeNull();
      // Signed separately, so compare the path (the image and variant), not the signature.
      expect(new URL(row.thumbnail_url ?? "").pathname).toBe(new URL(first?.thumbnail_url ?? "").pathname);
      const thumbnail = await fetch(row.thumbnail_url ?? "");
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers.get("content-type")).toBe("image/jpeg");
    }
  });

  it("answers valid RFC 7946 GeoJSON with ?format=geojson and with Accept: application/geo+json", async () => {
    for (const [query, headers] of [
      ["?format=geojson", {}],
      ["", { accept: "application/geo+json" }],
    ] as const) {
      const res = await api.request<Record<string, unknown>>("GET", `/api/v1/missions/${missionId}/submissions${query}`, { token: partner.token, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/geo+json");
      const collection = checkGeoJson(res.text);
      expect(collection.type).toBe("FeatureCollection");
      const features = (res.body as { features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[] }).features;
      expect(features).toHaveLength(3);
      const [lng, lat] = features[0]?.geometry.coordinates ?? [];
      expect(lng).toBeCloseTo(11.2575, 4);
      expect(lat).toBeCloseTo(43.7705, 4);
      expect(Object.keys(features[0]?.properties ?? {})).toEqual(
        expect.arrayContaining(["submission_id", "captured_at", "altitude_m", "accuracy_m", "image_count"]),
      );
    }
  });

  it("filters by bbox", async () => {
    const inside = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions?bbox=11.25,43.76,11.26,43.78`, {
      token: partner.token,
    });
    expect(inside.body.meta.total).toBe(3);
    const away = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions?bbox=0,0,1,1`, { token: partner.token });
    expect(away.body.meta.total).toBe(0);
  });

  it("keeps every submission route to its own organisation", async () => {
    const other = await api.partner();
    const list = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/missions/${missionId}/submissions`, { token: partner.token });
    const submissionId = list.body.data[0]?.id ?? "";
    for (const path of [
      `/api/v1/missions/${missionId}/submissions`,
      `/api/v1/submissions/${submissionId}`,
      `/api/v1/submissions/${submissionId}/images`,
      `/api/v1/missions/${missionId}/export`,
    ]) {
      const res = await api.request<{ code: string }>("GET", path, { token: other.token });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("shows zoomers open missions near them, with public fields only", async () => {
    const res = await api.request<{ data: Record<string, unknown>[] }>("GET", "/api/v1/field/missions?lat=43.7705&lng=11.2575&radius_km=1", {
      token: zoomer.token,
    });
    expect(res.status).toBe(200);
    const mine = res.body.data.find((m) => m.id === missionId);
    expect(mine).toMatchObject({ distance_m: 0, required_images: 10 });
    expect(Object.keys(mine ?? {}).sort()).toEqual([
      "bounds",
      "created_at",
      "description",
      "distance_m",
      "id",
      "images_still_needed",
      "required_images",
      "title",
    ]);
    const far = await api.request<{ data: unknown[] }>("GET", "/api/v1/field/missions?lat=48.85&lng=2.35&radius_km=5", { token: zoomer.token });
    expect(far.body.data.find((m) => (m as { id: string }).id === missionId)).toBeUndefined();
    expect((await api.request("GET", "/api/v1/field/missions?lat=43&lng=11", { token: partner.token })).status).toBe(403);
  });
});
