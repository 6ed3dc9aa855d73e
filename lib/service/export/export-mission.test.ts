import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { images, submissions, zoomers } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createMission } from "@/lib/service/missions/create-mission";
import { getMissionRow } from "@/lib/service/missions/get-mission";
import { ephemeralSecretBox } from "@/lib/auth/secret-box";
import { createRuntime, TOKEN_TTL_SECONDS, type ServiceRuntime } from "@/lib/runtime/runtime";
import { exportMission } from "./export-mission";

let runtime: ServiceRuntime;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "pm-export-unit-"));
  runtime = await createRuntime({
    database: await openTemplatePglite(),
    secretBox: ephemeralSecretBox(),
    config: {
      publicOrigin: "http://localhost:3000",
      adminToken: "x".repeat(40),
      tokenTtlSeconds: TOKEN_TTL_SECONDS,
      rateLimit: { perMinute: 60, perHour: 1000, tokenPerMinute: 20, tokenPerMinutePerIp: 100 },
      dashboardRateLimit: { perMinute: 1200, perHour: 36_000 },
      maxBodyBytes: 1e6,
      trustProxy: false,
      dataDir,
      uploads: { maxFileBytes: 1e6, maxPhotos: 5, maxPixels: 1e7 },
      cdnUrlTtlSeconds: 3600,
      webhooks: { timeoutMs: 1000, allowPrivateTargets: true, retryScale: 1, secretGraceSeconds: 60 },
    },
  });
});
afterAll(async () => {
  await runtime.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A mission with `count` one-image submissions whose "photos" are small distinct files. */
async function missionWithImages(count: number) {
  const { ctx } = runtime;
  const org = await createOrganisation({ db: ctx.db, name: "Export" });
  const mission = await createMission({
    db: ctx.db,
    orgId: org.id,
    input: {
      title: "Many",
      bounds: {
        type: "Polygon",
        coordinates: [
          [
            [11, 43],
            [11.01, 43],
            [11.01, 43.01],
            [11, 43],
          ],
        ],
      },
      required_images: 10_000,
    },
  });
  const zoomerId = createId("zoomer");
  await ctx.db.insert(zoomers).values({ id: zoomerId, name: "z" });
  const subs = [];
  const imgs = [];
  for (let i = 0; i < count; i++) {
    const submissionId = createId("submission");
    const imageId = createId("image");
    const key = `${org.id}/${mission.id}/${imageId}/original.jpg`;
    const bytes = Buffer.from(`photo ${i} `.repeat(3));
    await ctx.store.putBuffer(key, bytes);
    subs.push({ id: submissionId, missionId: mission.id, orgId: org.id, zoomerId, imageCount: 1, reasons: [] });
    imgs.push({
      id: imageId,
      submissionId,
      missionId: mission.id,
      orgId: org.id,
      position: 0,
      storageKey: key,
      contentType: "image/jpeg",
      byteSize: bytes.length,
      sha256: "x",
      exif: { present: false },
    });
  }
  for (let i = 0; i < subs.length; i += 500) {
    await ctx.db.insert(submissions).values(subs.slice(i, i + 500));
    await ctx.db.insert(images).values(imgs.slice(i, i + 500));
  }
  return getMissionRow(ctx, org.id, mission.id);
}

async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("exportMission", () => {
  it.each([0, 3, 700])(
    "announces exactly the size it streams (%i images), and the archive tests clean",
    async (count) => {
      const mission = await missionWithImages(count);
      const archive = await exportMission(runtime.ctx, mission);
      const body = await drain(archive.stream);
      expect(archive.imageCount).toBe(count);
      expect(body.length).toBe(archive.size);
      const path = join(dataDir, `export-${count}.zip`);
      await writeFile(path, body);
      expect(execFileSync("unzip", ["-t", "-qq", path]).toString()).toBe("");
      expect(execFileSync("zipinfo", ["-1", path]).toString().trim().split("\n")).toHaveLength(count + 1);
    },
    60_000,
  );
});
