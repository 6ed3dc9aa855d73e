import type { S3StoreConfig } from "./s3-store";

/** Local disk under dataDir/photos (the default), or an S3-compatible bucket shared by every instance. */
export type StorageConfig = { kind: "local" } | ({ kind: "s3" } & S3StoreConfig);
