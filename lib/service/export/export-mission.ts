// A mission as a streamed ZIP: every image's original bytes plus metadata.json (mission,
// submissions, per-image EXIF, QA verdict, SHA-256). Rows are read page by page and file bytes
// are opened only when the archive reaches them, so memory stays flat; the archive is always
// ZIP64 (stored-zip.ts), so sizes and counts have no limit. Entry names are built from ids only: nothing a client
// sent (file names included) can put "..", a slash or a duplicate into the archive.
import { Readable } from "node:stream";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { images, submissions } from "@/lib/db/schema";
import { photoFileExtension } from "@/lib/photos/photo-types";
import type { ServiceContext } from "@/lib/service/context";
import { serializeMission, type MissionRow } from "@/lib/service/missions/serialize-mission";
import { serializeSubmission, type ImageRow } from "@/lib/service/submissions/serialize-submission";
import { storedZip } from "./stored-zip";

const PAGE = 500;

export function imageEntryName(image: Pick<ImageRow, "id" | "submissionId" | "position" | "contentType">): string {
  return `images/${image.submissionId}/${String(image.position + 1).padStart(2, "0")}-${image.id}.${photoFileExtension(image.contentType)}`;
}

async function* submissionPages(ctx: ServiceContext, missionId: string) {
  let after = "";
  for (;;) {
    const page = await ctx.db
      .select()
      .from(submissions)
      .where(and(eq(submissions.missionId, missionId), gt(submissions.id, after)))
      .orderBy(asc(submissions.id))
      .limit(PAGE);
    if (page.length === 0) return;
    const imageRows = await ctx.db
      .select()
      .from(images)
      .where(
        inArray(
          images.submissionId,
          page.map((s) => s.id),
        ),
      )
      .orderBy(asc(images.submissionId), asc(images.position));
    yield { submissions: page, images: imageRows };
    after = page.at(-1)?.id ?? after;
  }
}

/** The columns an archive entry needs, page by page (not the EXIF and QA documents). */
async function* imageEntryPages(ctx: ServiceContext, missionId: string) {
  let after = "";
  for (;;) {
    const page = await ctx.db
      .select({
        id: images.id,
        submissionId: images.submissionId,
        position: images.position,
        contentType: images.contentType,
        storageKey: images.storageKey,
        byteSize: images.byteSize,
        createdAt: images.createdAt,
      })
      .from(images)
      .where(and(eq(images.missionId, missionId), gt(images.id, after)))
      .orderBy(asc(images.id))
      .limit(PAGE);
    if (page.length === 0) return;
    yield page;
    after = page.at(-1)?.id ?? after;
  }
}

/** metadata.json, produced as a stream: the document is never whole in memory. */
function metadataStream(ctx: ServiceContext, mission: MissionRow, exportedAt: Date): Readable {
  async function* generate() {
    const head = { format: "photo-missions-export/1", exported_at: exportedAt.toISOString(), mission: serializeMission(mission) };
    yield `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "submissions": [`;
    let first = true;
    for await (const page of submissionPages(ctx, mission.id)) {
      for (const submission of page.submissions) {
        const own = page.images.filter((i) => i.submissionId === submission.id);
        const entry = {
          ...serializeSubmission(submission),
          images: own.map((i) => ({
            id: i.id,
            file: imageEntryName(i),
            sha256: i.sha256,
            byte_size: i.byteSize,
            content_type: i.contentType,
            width: i.width,
            height: i.height,
            original_name: i.originalName,
            exif: i.exif,
            qa: i.qa,
          })),
        };
        yield `${first ? "" : ","}\n    ${JSON.stringify(entry)}`;
        first = false;
      }
    }
    yield `\n  ]\n}\n`;
  }
  return Readable.from(generate());
}

export interface MissionExport {
  stream: Readable;
  /** Exact archive size, known before the first byte is sent (Content-Length, progress bars). */
  size: number;
  imageCount: number;
}

/**
 * Builds the archive's entry list (ids, sizes: no file bytes) and its exact size, then returns
 * the stream. Entries are stored, not compressed (JPEGs do not shrink), which is what lets the
 * size be known up front; metadata.json is sized by a first streamed pass.
 */
export async function exportMission(ctx: ServiceContext, mission: MissionRow): Promise<MissionExport> {
  const exportedAt = new Date();
  async function* files() {
    for await (const page of imageEntryPages(ctx, mission.id)) {
      yield page.map((image) => ({ name: imageEntryName(image), storageKey: image.storageKey, byteSize: image.byteSize, mtime: image.createdAt }));
    }
  }
  const archive = await storedZip(
    ctx,
    files(),
    { name: "metadata.json", mtime: exportedAt, create: () => metadataStream(ctx, mission, exportedAt) },
    { mission_id: mission.id },
  );
  return { stream: archive.stream, size: archive.size, imageCount: archive.fileCount };
}
