// Where the bytes of unfinished resumable uploads live, chosen like the photo store: a FileStore
// under DATA_DIR/tus-uploads on local storage, an S3Store (S3 multipart uploads) in the same
// bucket when photos live in S3, so every instance can resume an upload another one began.
// One per service context (ctx.fieldUploads; the S3Store keeps a client and a metadata cache).
//
// A finished upload is handed to the intake as a measured file (finishedFile): on local disk it is
// hashed where it lies and given a second name in the temp directory (a hard link, no byte
// copied), which the photo store then renames into place — the bytes are written once, by the
// PATCH that brought them. On S3 the finished object is read once into a measured temp file.
import { createReadStream } from "node:fs";
import { chmod, link, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import { ERRORS, type DataStore, type Upload } from "@tus/utils";
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "@/lib/fs/private-files";
import { measuringTap, spoolToTempFile, type UploadedFile } from "@/lib/service/submissions/parse-upload";
import { tempUploadName } from "@/lib/service/submissions/sweep-temp-uploads";
import { StorageError } from "@/lib/service/storage/object-store";
import type { StorageConfig } from "@/lib/service/storage/storage-config";

/** How long an unfinished upload may wait for its next byte before it is swept. */
export const DEFAULT_FIELD_UPLOAD_TTL_SECONDS = 48 * 3600;

/** Both stores can read a finished upload back (the base class leaves it out). */
export type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

export interface FieldUploadStore {
  datastore: ReadableDataStore;
  ttlSeconds: number;
  /** The FileStore's directory (`upl_…` bytes and `upl_….json` records); null for the S3 store. */
  directory: string | null;
  /**
   * A finished upload's bytes as a measured file (size, SHA-256, head) under DATA_DIR/tmp, for the
   * intake to move into the photo store. The upload itself keeps its bytes until it is removed, so
   * an intake that fails (storage, database) can be tried again from them.
   */
  finishedFile(id: string, originalName: string | null): Promise<UploadedFile>;
}

/** The settings the store is chosen by: these of the service's configuration (ServiceConfig). */
export interface FieldUploadStoreConfig {
  dataDir: string;
  storage?: StorageConfig;
  /** ServiceConfig's upload limits; the store reads how long an unfinished upload is kept. */
  uploads: { resumableTtlSeconds?: number } & Record<string, unknown>;
}

/**
 * A FileStore whose files are the owner's alone, like the rest of DATA_DIR (lib/fs/private-files.ts):
 * a partial photo carries GPS too. Its directory is made 0700 before the store sees it; the upload
 * file and its .json record are made 0600 when created (later writes keep the mode).
 */
class PrivateFileStore extends FileStore {
  constructor(options: ConstructorParameters<typeof FileStore>[0]) {
    ensurePrivateDir(options.directory);
    super(options);
  }

  /**
   * The finished upload hashed in place (one read), then hard-linked into `tempDir`: the photo
   * store's rename moves that name, not a copy. Where links cannot be made (another filesystem,
   * a filesystem without them), the bytes are copied as before.
   */
  async finishedFile(id: string, tempDir: string, originalName: string | null): Promise<UploadedFile> {
    const path = join(this.directory, id);
    const file: UploadedFile = {
      field: "photos",
      originalName,
      declaredType: "image/jpeg",
      tempPath: join(tempDir, tempUploadName()),
      size: 0,
      sha256: "",
      head: new Uint8Array(0),
    };
    try {
      await pipeline(createReadStream(path), measuringTap(file), new Writable({ write: (_chunk, _encoding, done) => done() }));
    } catch (error) {
      throw new StorageError("a finished upload could not be read", { cause: error });
    }
    try {
      await mkdir(tempDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await link(path, file.tempPath);
      return file;
    } catch {
      return spoolToTempFile(createReadStream(path), tempDir, originalName);
    }
  }

  override async create(upload: Upload): Promise<Upload> {
    const created = await super.create(upload);
    await Promise.all([upload.id, `${upload.id}.json`].map((name) => chmod(join(this.directory, name), PRIVATE_FILE_MODE).catch(() => undefined)));
    return created;
  }

  /** A file of this store: a plain name, never a path that could leave the directory. */
  private pathOf(name: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.startsWith(".")) throw ERRORS.FILE_NOT_FOUND;
    return join(this.directory, name);
  }

  /**
   * Removes the bytes and the record, each whether or not the other is there (the FileStore's own
   * remove stops at a missing data file and leaves the .json behind for ever); unknown when neither was.
   */
  override async remove(id: string): Promise<void> {
    const removed = await Promise.all(
      [id, `${id}.json`].map((name) =>
        rm(this.pathOf(name)).then(
          () => true,
          (error: unknown) => {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
            throw error;
          },
        ),
      ),
    );
    if (!removed.some(Boolean)) throw ERRORS.FILE_NOT_FOUND;
  }
}

const fieldUploadDirectory = (config: FieldUploadStoreConfig) => join(config.dataDir, "tus-uploads");

const stores = new WeakMap<FieldUploadStoreConfig, FieldUploadStore>();

export function fieldUploadStore(config: FieldUploadStoreConfig): FieldUploadStore {
  const known = stores.get(config);
  if (known) return known;
  const ttlSeconds = config.uploads.resumableTtlSeconds ?? DEFAULT_FIELD_UPLOAD_TTL_SECONDS;
  const expirationPeriodInMilliseconds = ttlSeconds * 1000;
  const storage = config.storage;
  const datastore =
    storage?.kind === "s3"
      ? new S3Store({
          // S3's smallest part: the bytes of a PATCH cut off by a lost signal are kept up to the last
          // whole 5 MiB (the rest of a part in progress is lost), so resumes redo as little as possible.
          partSize: 5 * 1024 * 1024,
          expirationPeriodInMilliseconds,
          s3ClientConfig: {
            bucket: storage.bucket,
            region: storage.region,
            endpoint: storage.endpoint,
            forcePathStyle: storage.forcePathStyle,
            credentials: storage.credentials,
            // As in lib/service/storage/s3-store.ts: several S3-compatible servers refuse the SDK's CRC trailers.
            requestChecksumCalculation: "WHEN_REQUIRED",
            responseChecksumValidation: "WHEN_REQUIRED",
          },
        })
      : new PrivateFileStore({ directory: fieldUploadDirectory(config), expirationPeriodInMilliseconds });
  const tempDir = join(config.dataDir, "tmp");
  const store: FieldUploadStore = {
    datastore,
    ttlSeconds,
    directory: storage?.kind === "s3" ? null : fieldUploadDirectory(config),
    finishedFile: async (id, originalName) =>
      datastore instanceof PrivateFileStore
        ? datastore.finishedFile(id, tempDir, originalName)
        : spoolToTempFile(await datastore.read(id), tempDir, originalName),
  };
  stores.set(config, store);
  return store;
}
