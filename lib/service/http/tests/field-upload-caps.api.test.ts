// Caps and sweep of resumable field uploads (tus at /api/v1/field/uploads) over real HTTP, on
// local disk: per-zoomer caps on unfinished uploads (count and reserved bytes, 409 with codes of
// their own, holding under concurrent creations), nothing left on disk by a refused creation, and
// the sweep that walks the upload files themselves (planted files without rows, expired rows, and
// the 100-uploads case once their expiry has passed).
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldUploads } from "@/lib/db/schema";
import { fieldUploadStore } from "@/lib/service/field/field-upload-store";
import { FIELD_UPLOAD_FILE_GRACE_MS, sweepFieldUploads } from "@/lib/service/field/sweep-field-uploads";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { createZoomer, photo } from "./photos";
import { pollUntil } from "./poll-until";

const LIMITS = { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } };
const UPLOADS = "/api/v1/field/uploads";
const MiB = 1024 * 1024;

const metadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, "utf8").toString("base64")}`)
    .join(",");

interface TusAnswer {
  status: number;
  headers: Headers;
  text: string;
}

async function tus(url: string, method: string, token: string, headers: Record<string, string> = {}, body?: Uint8Array): Promise<TusAnswer> {
  const response = await fetch(url, {
    method,
    headers: { "tus-resumable": "1.0.0", authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/offset+octet-stream" } : {}), ...headers },
    body: body ? new Uint8Array(body) : undefined,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const codeOf = (answer: TusAnswer): unknown => (JSON.parse(answer.text) as { code?: unknown }).code;
const idOf = (answer: TusAnswer): string => answer.headers.get("location")?.split("/").at(-1) ?? "";

function startService(overrides: Parameters<typeof startTestService>[0] = {}) {
  const state: { service?: TestService; api?: TestClient; partner?: { token: string } } = {};
  beforeAll(async () => {
    state.service = await startTestService({ ...LIMITS, uploads: { maxFileBytes: 12 * MiB, maxPhotos: 5, maxPixels: 40_000_000 }, ...overrides });
    state.api = new TestClient(state.service);
    state.partner = await state.api.partner();
  });
  afterAll(() => state.service?.close());
  const service = (): TestService => {
    if (!state.service) throw new Error("the service did not start");
    return state.service;
  };
  return {
    service,
    api: (): TestClient => {
      if (!state.api) throw new Error("the service did not start");
      return state.api;
    },
    partnerToken: () => state.partner?.token ?? "",
    create: (token: string, length: number, values: Record<string, string>, body?: Uint8Array) =>
      tus(`${service().url}${UPLOADS}`, "POST", token, { "upload-length": String(length), "upload-metadata": metadata(values) }, body),
    directory: () => fieldUploadStore(service().runtime.ctx.config).directory ?? "",
    openRows: (zoomerId: string) =>
      service()
        .runtime.ctx.db.select({ id: fieldUploads.id })
        .from(fieldUploads)
        .where(and(eq(fieldUploads.zoomerId, zoomerId), isNull(fieldUploads.submissionId), isNull(fieldUploads.refusal))),
  };
}

describe("caps on unfinished uploads (defaults: 20 open, 250 MiB)", () => {
  const s = startService();

  it("100 unfinished uploads by one zoomer: the first 20 are created, the other 80 refused with too_many_open_uploads; once expired, the sweep leaves nothing on disk", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    const start = (await photo({ seed: 40 })).subarray(0, 2000);
    const answers: TusAnswer[] = [];
    // Each sends its first 2,000 bytes with the creation, as a phone's outbox does, so each has files.
    for (let i = 0; i < 100; i++) answers.push(await s.create(zoomer.token, 50_000, { target: mission.id, angle: "front", filename: `p${i}.jpg` }, start));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(20);
    expect(answers.slice(0, 20).every((a) => a.status === 201)).toBe(true);
    for (const refused of answers.slice(20)) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.headers.get("content-type")).toMatch(/problem\+json/);
      expect(codeOf(refused)).toBe("too_many_open_uploads");
    }
    const detail = (JSON.parse(answers[99]?.text ?? "{}") as { detail: string }).detail;
    expect(detail).toContain("You have 20 unfinished uploads");
    expect(detail).toMatch(/Finish or DELETE/);
    // Not the rate limit.
    expect(answers[99]?.headers.get("retry-after")).toBeNull();

    const ids = created.map(idOf);
    expect((await s.openRows(zoomer.id)).map((r) => r.id).sort()).toEqual([...ids].sort());
    const files = await readdir(s.directory());
    expect(ids.every((id) => files.includes(id) && files.includes(`${id}.json`))).toBe(true);
    // The refused ones wrote nothing: 40 files for this zoomer's 20 uploads, no more.
    expect(files.filter((f) => ids.includes(f.replace(/\.json$/, "")))).toHaveLength(40);

    // Another zoomer is not held back by this one's uploads.
    const other = await createZoomer(s.api());
    expect((await s.create(other.token, 50_000, { target: mission.id, angle: "front" })).status).toBe(201);

    // Their expiry passes (48 h): rows and files go.
    const { ctx } = s.service().runtime;
    expect((await sweepFieldUploads(ctx)).rows).toBe(0);
    expect((await readdir(s.directory())).filter((f) => ids.includes(f.replace(/\.json$/, "")))).toHaveLength(40);
    const sweep = await sweepFieldUploads(ctx, new Date(Date.now() + 49 * 3600_000));
    expect(sweep.rows).toBeGreaterThanOrEqual(21);
    expect(await s.openRows(zoomer.id)).toEqual([]);
    expect(await readdir(s.directory())).toEqual([]);
    // And the zoomer has room again.
    expect((await s.create(zoomer.token, 50_000, { target: mission.id, angle: "front" })).status).toBe(201);
  });

  it("finishing one or DELETE-ing one frees a slot at once", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    const meta = { target: mission.id, angle: "front" };
    const urls: string[] = [];
    for (let i = 0; i < 19; i++) urls.push((await s.create(zoomer.token, 10_000, meta)).headers.get("location") ?? "");
    const bytes = await photo({ seed: 41 });
    const last = await s.create(zoomer.token, bytes.length, meta);
    expect(last.status, last.text).toBe(201);
    expect(codeOf(await s.create(zoomer.token, 10_000, meta))).toBe("too_many_open_uploads");

    // DELETE one: room for one more, and no more than that.
    expect((await tus(urls[0] ?? "", "DELETE", zoomer.token)).status).toBe(204);
    expect((await s.create(zoomer.token, 10_000, meta)).status).toBe(201);
    expect(codeOf(await s.create(zoomer.token, 10_000, meta))).toBe("too_many_open_uploads");

    // Finish one (its photo received): room again.
    const done = await tus(last.headers.get("location") ?? "", "PATCH", zoomer.token, { "upload-offset": "0" }, bytes);
    expect(done.status, done.text).toBe(204);
    expect(done.headers.get("submission-id")).toMatch(/^sub_/);
    expect((await s.create(zoomer.token, 10_000, meta)).status).toBe(201);
    expect(await s.openRows(zoomer.id)).toHaveLength(20);
  });

  it("concurrent creations never pass the cap", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    for (let i = 0; i < 15; i++) expect((await s.create(zoomer.token, 10_000, { target: mission.id, angle: "front" })).status).toBe(201);
    // 5 slots left, 20 asking for them at once.
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.create(zoomer.token, 10_000, { target: mission.id, angle: "front" })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409 && codeOf(a) === "too_many_open_uploads")).toHaveLength(15);
    expect(await s.openRows(zoomer.id)).toHaveLength(20);
  });

  it("a creation-with-upload sending more bytes than its Upload-Length is 413 and leaves nothing on disk or in the database", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    const bytes = await photo({ seed: 42 });
    const before = await readdir(s.directory());
    const refused = await s.create(zoomer.token, 1000, { target: mission.id, angle: "front", filename: "long.jpg" }, bytes);
    expect(refused.status, refused.text).toBe(413);
    expect(await readdir(s.directory())).toEqual(before);
    const rows = await s.service().runtime.ctx.db.select().from(fieldUploads).where(eq(fieldUploads.zoomerId, zoomer.id));
    expect(rows).toEqual([]);
  });
});

describe("the reserved-bytes cap (configured: 30 MiB)", () => {
  const s = startService({ uploads: { maxFileBytes: 12 * MiB, maxPhotos: 5, maxPixels: 40_000_000, maxOpenUploadBytes: 30 * MiB } });

  it("refuses a creation whose Upload-Length would pass the zoomer's reserved bytes with upload_quota_exceeded; a smaller one still fits", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    const meta = { target: mission.id, angle: "front" };
    expect((await s.create(zoomer.token, 12 * MiB, meta)).status).toBe(201);
    const second = await s.create(zoomer.token, 12 * MiB, meta);
    expect(second.status).toBe(201);
    const big = await s.create(zoomer.token, 12 * MiB, meta);
    expect(big.status, big.text).toBe(409);
    expect(codeOf(big)).toBe("upload_quota_exceeded");
    expect((JSON.parse(big.text) as { detail: string }).detail).toContain("Your 2 unfinished uploads reserve 24 MiB");
    expect((await s.create(zoomer.token, 6 * MiB, meta)).status).toBe(201);
    expect(codeOf(await s.create(zoomer.token, 1, meta))).toBe("upload_quota_exceeded");
    // DELETE-ing one gives its bytes back.
    expect((await tus(second.headers.get("location") ?? "", "DELETE", zoomer.token)).status).toBe(204);
    expect((await s.create(zoomer.token, 12 * MiB, meta)).status).toBe(201);
  });

  it("documents both caps in the OpenAPI description of POST /field/uploads", async () => {
    const res = await fetch(`${s.service().url}/api/v1/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, { post?: { description?: string; responses?: Record<string, unknown> } }> };
    const post = doc.paths[UPLOADS]?.post;
    expect(post?.description).toContain("too_many_open_uploads");
    expect(post?.description).toContain("upload_quota_exceeded");
    expect(post?.description).toContain(`at most 20 unfinished uploads`);
    expect(post?.description).toContain(`${30 * MiB} bytes`);
    expect(Object.keys(post?.responses ?? {})).toContain("409");
  });
});

describe("the sweep walks the upload files", () => {
  const s = startService();

  it("removes planted files without rows and expired rows with their files; keeps live uploads", async () => {
    const zoomer = await createZoomer(s.api());
    const mission = await s.api().createMission(s.partnerToken());
    const bytes = await photo({ seed: 43 });
    const meta = { target: mission.id, angle: "front" };
    const live = await s.create(zoomer.token, bytes.length, meta, bytes.subarray(0, 3000));
    const expiring = await s.create(zoomer.token, bytes.length, meta, bytes.subarray(0, 3000));
    expect([live.status, expiring.status]).toEqual([201, 201]);
    const { ctx } = s.service().runtime;
    await ctx.db
      .update(fieldUploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(fieldUploads.id, idOf(expiring)));

    // What a process killed mid-way, or an older version, leaves: files with no row, alone or in pairs.
    const dir = s.directory();
    const orphans = [
      "upl_0000000000000000000000000a",
      "upl_0000000000000000000000000a.json",
      "upl_0000000000000000000000000b.json",
      "upl_0000000000000000000000000c",
    ];
    const old = new Date(Date.now() - 2 * FIELD_UPLOAD_FILE_GRACE_MS);
    for (const name of orphans) {
      await writeFile(join(dir, name), "left over");
      await utimes(join(dir, name), old, old);
    }
    const sweep = await sweepFieldUploads(ctx);
    expect(sweep).toMatchObject({ rows: 1, files: orphans.length });
    expect((await readdir(dir)).sort()).toEqual([idOf(live), `${idOf(live)}.json`].sort());
    expect(
      await ctx.db
        .select({ id: fieldUploads.id })
        .from(fieldUploads)
        .where(eq(fieldUploads.id, idOf(expiring))),
    ).toEqual([]);

    // The live upload resumes and finishes as if nothing happened; its files then go with it.
    const rest = await tus(live.headers.get("location") ?? "", "PATCH", zoomer.token, { "upload-offset": "3000" }, bytes.subarray(3000));
    expect(rest.status, rest.text).toBe(204);
    expect(rest.headers.get("submission-id")).toMatch(/^sub_/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("the sweep at start", () => {
  it("removes what a process killed mid-upload left in DATA_DIR/tus-uploads as soon as the service starts again", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "pm-tus-restart-"));
    const dir = join(dataDir, "tus-uploads");
    await mkdir(dir, { recursive: true });
    const old = new Date(Date.now() - 2 * FIELD_UPLOAD_FILE_GRACE_MS);
    const leftovers = ["upl_000000000000000000000000kl", "upl_000000000000000000000000kl.json", "upl_000000000000000000000000km.json"];
    for (const name of leftovers) {
      await writeFile(join(dir, name), "written before the kill");
      await utimes(join(dir, name), old, old);
    }
    const service = await startTestService(LIMITS, { dataDir });
    try {
      expect(
        await pollUntil(
          () => readdir(dir),
          (names) => names.length === 0,
          10_000,
        ),
      ).toEqual([]);
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
