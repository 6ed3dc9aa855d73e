// Where the bytes of unfinished resumable uploads live, chosen like the photo store: a FileStore
// under DATA_DIR/tus-uploads on local storage, an S3Store (S3 multipart uploads) in the same
// bucket when photos live in S3, so every instance can resume an upload another one began.
// One per configuration (the S3Store keeps a client and a metadata cache).
import { join } from "node:path";
import type { Readable } from "node:stream";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import type { DataStore } from "@tus/utils";
import type { ServiceConfig } from "@/lib/service/context";

/** How long an unfinished upload may wait for its next byte before it is swept. */
export const DEFAULT_FIELD_UPLOAD_TTL_SECONDS = 48 * 3600;

/** Both stores can read a finished upload back (the base class leaves it out). */
export type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

export interface FieldUploadStore {
  datastore: ReadableDataStore;
  ttlSeconds: number;
}

/** The settings the store is chosen by. */
export type FieldUploadStoreConfig = Pick<ServiceConfig, "dataDir" | "storage" | "uploads">;

const stores = new WeakMap<FieldUploadStoreConfig, FieldUploadStore>();

export function fieldUploadStore(config: FieldUploadStoreConfig): FieldUploadStore {
  const known = stores.get(config);
  if (known) return known;
  const ttlSeconds = config.uploads.resumableTtlSeconds ?? DEFAULT_FIELD_UPLOAD_TTL_SECONDS;
  const expirationPeriodInMilliseconds = ttlSeconds * 1000;
  const storage = config.storage;
  const datastore: ReadableDataStore =
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
      : new FileStore({ directory: join(config.dataDir, "tus-uploads"), expirationPeriodInMilliseconds });
  const store = { datastore, ttlSeconds };
  stores.set(config, store);
  return store;
}
