// s3rver in a process of its own, for the tests (lib/testing/s3-test-server.ts starts it):
//   node lib/testing/s3rver-child.mjs <directory> <bucket>   → prints {"port":N} once listening.
// Two of s3rver's ways with an upload cut off part-way differ from S3's, and are set right here:
// - S3 refuses a body shorter than its Content-Length (IncompleteBody) and stores nothing; s3rver
//   stored what it got. The store below removes such an object and answers IncompleteBody, and
//   removes the partial file of a request whose connection was cut before its body ended, once
//   its file stream has closed (putStream).
// - Any other uncaught exception of s3rver's is logged and the server goes on, instead of failing
//   whichever test process it ran in.
// And two calls of S3's multipart API that s3rver lacks and @tus/s3-store (resumable uploads)
// needs are answered here from s3rver's own upload directory: ListParts (GET ?uploadId) and
// AbortMultipartUpload (DELETE ?uploadId).
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import S3rver from "s3rver";
import FilesystemStore from "s3rver/lib/stores/filesystem.js";
import S3Error from "s3rver/lib/models/error.js";

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) {
  console.error("usage: s3rver-child.mjs <directory> <bucket>");
  process.exit(2);
}

const putObject = FilesystemStore.prototype.putObject;
FilesystemStore.prototype.putObject = async function (object) {
  const content = object.content;
  // A body in memory cannot be cut off: s3rver's own way.
  const result = content && typeof content.pipe === "function" ? await putStream(this, object) : await putObject.call(this, object);
  const expected = object.size;
  if (Number.isFinite(expected) && result.size < expected) {
    await this.deleteObject(object.bucket, object.key).catch(() => undefined);
    throw new S3Error("IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.");
  }
  return result;
};

/**
 * s3rver's putObject for a streamed body, with the cut-off case set right: s3rver pipes the
 * request without listening for its error, so its write never finished and the partial file
 * stayed; and a delete sent meanwhile could run before its file stream had even opened the file,
 * leaving an empty one behind. Here the pipeline fails, and the partial file is removed only after
 * its stream has closed, so nothing is left whatever the order.
 */
async function putStream(store, object) {
  const objectPath = store.getResourcePath(object.bucket, object.key, "object");
  await mkdir(dirname(objectPath), { recursive: true });
  const md5 = createHash("md5");
  let size = 0;
  const file = createWriteStream(objectPath);
  const measure = new Transform({
    transform(chunk, encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(object.content, measure, file);
  } catch (error) {
    if (!file.closed) await once(file, "close").catch(() => undefined);
    await store.deleteObject(object.bucket, object.key).catch(() => undefined);
    throw error;
  }
  const digest = md5.digest("hex");
  await store.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
}

process.on("uncaughtException", (error) => console.error(`[s3rver] ${error.message}`));

const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });

/** ListParts and AbortMultipartUpload, over the directory where s3rver keeps an upload's parts. */
async function multipartExtras(ctx, next) {
  const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
  const uploadId = ctx.query.uploadId;
  if (!match || typeof uploadId !== "string" || !/^[A-Za-z0-9._-]+$/.test(uploadId) || (ctx.method !== "GET" && ctx.method !== "DELETE")) return next();
  const uploadDir = join(server.store.getResourcePath(match[1], undefined, "uploads"), uploadId);
  const exists = await stat(uploadDir).then(
    () => true,
    () => false,
  );
  if (!exists) {
    ctx.status = 404;
    ctx.type = "application/xml";
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
    return;
  }
  if (ctx.method === "DELETE") {
    await rm(uploadDir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const numbers = (await readdir(uploadDir))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (n) => {
      const [info, md5] = await Promise.all([stat(join(uploadDir, String(n))), readFile(join(uploadDir, `${n}.md5`), "utf8").catch(() => "")]);
      return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
    }),
  );
  ctx.status = 200;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${match[1]}</Bucket><Key>${match[2]}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`;
}
server.middleware.unshift(multipartExtras);
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
