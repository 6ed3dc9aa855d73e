// A real service context for the export benchmark: in-memory PGlite with the committed
// migrations, the runtime the API runs on, and missions whose submission and image rows point at
// files in the runtime's own LocalObjectStore — shaped like what intake and QA leave behind.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { images, missions, submissions } from "@/lib/db/schema";
import { parseEnv } from "@/lib/env";
import { createId } from "@/lib/ids/create-id";
import { readDimensions } from "@/lib/photos/analyse-image";
import { readExif, type ExifSummary } from "@/lib/photos/read-exif";
import { DEFAULT_QA_THRESHOLDS, QA_CHECKS, type QaCheck } from "@/lib/schemas/qa";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createZoomer } from "@/lib/service/accounts/create-zoomer";
import { createMission } from "@/lib/service/missions/create-mission";
import type { MissionRow } from "@/lib/service/missions/serialize-mission";
import { configFromEnv, createRuntime, type ServiceRuntime } from "@/lib/runtime/runtime";
import { ephemeralSecretBox } from "@/lib/auth/secret-box";
import { BENCH_ADMIN_TOKEN } from "./databases";
import type { PhotoFile } from "./photo-set";

/** A photo as intake would have recorded it: bytes plus what checkFile and hashing found. */
export interface SourcePhoto {
  name: string;
  data: Buffer;
  sha256: string;
  width: number;
  height: number;
  exif: ExifSummary;
}

export interface SeededExport {
  mission: MissionRow;
  /** Storage keys in the order the export reads them (submission id, then position). */
  keys: string[];
  imageBytes: number;
}

export interface Owner {
  orgId: string;
  zoomerId: string;
}

const IMAGES_PER_SUBMISSION = 2;
const INSERT_BATCH = 200;
// The benchmark mission's area: a 0.005° square in Florence, where the generated photos are.
const [LNG, LAT, SIZE] = [11.255, 43.768, 0.005];
const BOUNDS = {
  type: "Polygon" as const,
  coordinates: [
    [
      [LNG, LAT],
      [LNG + SIZE, LAT],
      [LNG + SIZE, LAT + SIZE],
      [LNG, LAT + SIZE],
      [LNG, LAT],
    ],
  ],
};

/** The production defaults (lib/env.ts) with the data dir under the benchmark's temp dir. */
export async function openService(root: string): Promise<ServiceRuntime> {
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  try {
    const config = configFromEnv(parseEnv({ DATA_DIR: join(root, "data"), PUBLIC_ORIGIN: "http://127.0.0.1:3000" }), BENCH_ADMIN_TOKEN);
    return await createRuntime({ database, config, secretBox: ephemeralSecretBox() });
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function createOwner(runtime: ServiceRuntime): Promise<Owner> {
  const org = await createOrganisation({ db: runtime.ctx.db, name: "Benchmark partner" });
  const zoomer = await createZoomer({ db: runtime.ctx.db, name: "Benchmark zoomer" });
  return { orgId: org.id, zoomerId: zoomer.id };
}

export async function loadSources(files: PhotoFile[]): Promise<SourcePhoto[]> {
  const sources: SourcePhoto[] = [];
  for (const file of files) {
    const data = readFileSync(file.path);
    const dimensions = await readDimensions(data);
    if (!dimensions) throw new Error(`${file.path}: not a readable JPEG`);
    const sha256 = createHash("sha256").update(data).digest("hex");
    sources.push({ name: file.name, data, sha256, ...dimensions, exif: await readExif(data) });
  }
  return sources;
}

/** The checks QA records for a passed photo, so metadata.json carries what a real export does. */
function passedChecks(source: SourcePhoto): QaCheck[] {
  return QA_CHECKS.map((check) => ({
    check,
    passed: true,
    value: check === "resolution" ? Math.min(source.width, source.height) : check === "sharpness" ? 312.4 : null,
    threshold: check === "resolution" ? DEFAULT_QA_THRESHOLDS.min_short_edge_px : check === "sharpness" ? DEFAULT_QA_THRESHOLDS.min_sharpness : null,
    message: `Check ${check} passed.`,
  }));
}

function submissionRow(owner: Owner, missionId: string, id: string, first: SourcePhoto, count: number): typeof submissions.$inferInsert {
  const gps = first.exif.gps;
  return {
    id,
    missionId,
    orgId: owner.orgId,
    zoomerId: owner.zoomerId,
    status: "approved",
    angle: "front",
    lat: gps?.lat ?? null,
    lng: gps?.lng ?? null,
    altitudeM: gps?.altitude_m ?? null,
    accuracyM: gps?.accuracy_m ?? null,
    capturedAt: first.exif.captured_at ? new Date(first.exif.captured_at) : null,
    imageCount: count,
    qa: { thresholds: DEFAULT_QA_THRESHOLDS },
    reasons: [],
    decidedAt: new Date(),
  };
}

function imageRow(owner: Owner, missionId: string, submissionId: string, position: number, source: SourcePhoto): typeof images.$inferInsert {
  const id = createId("image");
  const base = `${owner.orgId}/${missionId}/${id}`;
  const gps = source.exif.gps;
  return {
    id,
    submissionId,
    missionId,
    orgId: owner.orgId,
    position,
    storageKey: `${base}/original.jpg`,
    thumbnailKey: `${base}/thumbnail.jpg`,
    previewKey: `${base}/preview.jpg`,
    originalName: source.name,
    contentType: "image/jpeg",
    byteSize: source.data.length,
    sha256: source.sha256,
    width: source.width,
    height: source.height,
    exif: source.exif,
    lat: gps?.lat ?? null,
    lng: gps?.lng ?? null,
    altitudeM: gps?.altitude_m ?? null,
    accuracyM: gps?.accuracy_m ?? null,
    capturedAt: source.exif.captured_at ? new Date(source.exif.captured_at) : null,
    deviceMake: source.exif.make,
    deviceModel: source.exif.model,
    orientation: source.exif.orientation,
    directionDeg: gps?.direction_deg ?? null,
    perceptualHash: source.sha256.slice(0, 16),
    qa: passedChecks(source),
  };
}

async function insertBatched<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await insert(rows.slice(i, i + INSERT_BATCH));
}

/** A mission with `count` images (the sources repeated under fresh keys), two per submission. */
export async function seedExportMission(runtime: ServiceRuntime, owner: Owner, sources: SourcePhoto[], count: number): Promise<SeededExport> {
  const { db, store } = runtime.ctx;
  const created = await createMission({
    db,
    orgId: owner.orgId,
    input: { title: `Export benchmark (${count} images)`, bounds: BOUNDS, required_images: count },
  });
  const submissionRows: (typeof submissions.$inferInsert)[] = [];
  const imageRows: (typeof images.$inferInsert)[] = [];
  for (let i = 0; i < count; i += IMAGES_PER_SUBMISSION) {
    const submissionId = createId("submission");
    const own = Math.min(IMAGES_PER_SUBMISSION, count - i);
    const picks = Array.from({ length: own }, (_, p) => sources[(i + p) % sources.length]).filter((s): s is SourcePhoto => s !== undefined);
    const first = picks[0];
    if (!first) throw new Error("no source photos");
    submissionRows.push(submissionRow(owner, created.id, submissionId, first, picks.length));
    for (const [position, source] of picks.entries()) {
      const row = imageRow(owner, created.id, submissionId, position, source);
      await store.putBuffer(row.storageKey, source.data);
      imageRows.push(row);
    }
  }
  await insertBatched(submissionRows, (batch) => db.insert(submissions).values(batch));
  await insertBatched(imageRows, (batch) => db.insert(images).values(batch));
  const [mission] = await db.select().from(missions).where(eq(missions.id, created.id)).limit(1);
  if (!mission) throw new Error("the seeded mission is missing");
  const ordered = [...imageRows].sort((a, b) => (a.submissionId === b.submissionId ? a.position - b.position : a.submissionId < b.submissionId ? -1 : 1));
  return { mission, keys: ordered.map((r) => r.storageKey), imageBytes: imageRows.reduce((sum, r) => sum + r.byteSize, 0) };
}
