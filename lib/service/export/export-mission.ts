// A mission as a streamed ZIP: every image's original bytes plus metadata.json (mission,
// submissions, per-image EXIF, QA verdict, SHA-256). Rows are read page by page and file bytes
// are opened only when the archive reaches them, so memory stays flat; yazl switches to ZIP64
// on its own when sizes or counts need it. Entry names are built from ids only: nothing a client
// sent (file names included) can put "..", a slash or a duplicate into the archive.
import { Readable } from "node:stream";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import yazl from "yazl";
import { images, submissions } from "@/lib/db/schema";
import { log } from "@/lib/log";
import type { ServiceContext } from "@/lib/service/context";
import { serializeMission, type MissionRow } from "@/lib/service/missions/serialize-mission";
import { serializeSubmission, type ImageRow } from "@/lib/service/submissions/serialize-submission";

const PAGE = 500;

export function imageEntryName(image: Pick<ImageRow, "id" | "submissionId" | "position">): string {
  return `images/${image.submissionId}/${String(image.position + 1).padStart(2, "0")}-${image.id}.jpg`;
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
      .where(inArray(images.submissionId, page.map((s) => s.id)))
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
      .select({ id: images.id, submissionId: images.submissionId, position: images.position, storageKey: images.storageKey, byteSize: images.byteSize, createdAt: images.createdAt })
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

async function streamedSize(stream: Readable): Promise<number> {
  let size = 0;
  for await (const chunk of stream) size += Buffer.byteLength(chunk as string);
  return size;
}

/** Why an export stopped part-way; the cause (with keys or paths) is for the log only. */
export class ExportError extends Error {
  constructor(cause: Error) {
    super("the export stopped: a photo could not be read from storage", { cause });
    this.name = "ExportError";
  }
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
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  // One failure (a missing object, a read cut off, a short file) ends the archive: the client sees
  // the response cut short (the announced Content-Length is not reached), never a valid-looking ZIP.
  const fail = (error: Error) => {
    if (output.destroyed) return;
    log.error("export stopped part-way", { mission_id: mission.id }, error);
    output.destroy(new ExportError(error));
  };
  zip.on("error", fail);
  let imageCount = 0;
  for await (const page of imageEntryPages(ctx, mission.id)) {
    for (const image of page) {
      imageCount++;
      // Only the key is captured: the archive keeps one closure per entry until it ends.
      const key = image.storageKey;
      zip.addReadStreamLazy(imageEntryName(image), { compress: false, mtime: image.createdAt, size: image.byteSize }, (callback) => {
        ctx.store.read(key).then(
          (stream) => {
            // yazl pipes the stream without listening for its errors: a file removed or a
            // connection cut mid-entry would be an uncaught exception that ends the process.
            stream.once("error", (error: Error) => fail(error));
            callback(null, stream);
          },
          (error: Error) => fail(error),
        );
      });
    }
  }
  const metadataSize = await streamedSize(metadataStream(ctx, mission, exportedAt));
  zip.addReadStreamLazy("metadata.json", { compress: false, mtime: exportedAt, size: metadataSize }, (callback) => {
    const stream = metadataStream(ctx, mission, exportedAt);
    stream.once("error", (error: Error) => fail(error)); // a database error mid-document, as above
    callback(null, stream);
  });
  // @types/yazl declares the callback without its argument; yazl passes the total size (README).
  const onSize = ((total: number) => sizeKnown(total)) as () => void;
  let sizeKnown: (total: number) => void = () => {};
  const size = await new Promise<number>((resolve) => {
    sizeKnown = resolve;
    // Always ZIP64 records: yazl 3.3.1's size calculation adds the ZIP64 end record from about 540
    // entries while its writer adds it only past 4 GiB, announcing 76 bytes too many in between.
    zip.end({ forceZip64Format: true, comment: "" }, onSize);
  });
  return { stream: output, size, imageCount };
}
