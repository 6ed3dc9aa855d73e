// Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2) through AWS SDK v3,
// so that web instances and workers on different machines share the same photos. Uploads stream
// from the finished temp file (multipart above one part's size, aborted on failure so nothing half
// written remains); an original is read back and its SHA-256 compared before the submission is
// recorded, so the bytes a partner downloads are provably the bytes the zoomer sent.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat as statFile, unlink } from "node:fs/promises";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertSafeKey, ObjectNotFoundError, StorageError, type ObjectStore, type PutFileOptions, type StoredObject } from "./object-store";

export interface S3StoreConfig {
  bucket: string;
  region: string;
  /** Custom endpoint (MinIO, Ceph, R2, a test server); absent for AWS S3 itself. */
  endpoint?: string;
  /** Path-style addressing (`endpoint/bucket/key`): MinIO and most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several deployments. */
  prefix: string;
  /** Static credentials; when absent the SDK's default chain applies (AWS_* variables, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Multipart part size in bytes (≥ 5 MiB, S3's minimum). */
  partSize?: number;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  return statusOf(error) === 404 || (error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.name === "NotFound"));
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export class S3ObjectStore implements ObjectStore {
  readonly kind = "s3";
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;

  constructor(config: S3StoreConfig, clientOverrides: Partial<S3ClientConfig> = {}) {
    this.bucket = config.bucket;
    this.prefix = config.prefix ? `${config.prefix.replace(/\/+$/, "")}/` : "";
    this.partSize = Math.max(5 * 1024 * 1024, config.partSize ?? DEFAULT_PART_SIZE);
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's
      // default CRC trailers; integrity of originals is checked by our own SHA-256 read-back.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      ...clientOverrides,
    });
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}${key}`;
  }

  async putFile(key: string, tempPath: string, options: PutFileOptions = {}): Promise<StoredObject> {
    const Key = this.objectKey(key);
    const { size } = await statFile(tempPath);
    const body = createReadStream(tempPath);
    try {
      // Multipart (parallel parts, aborted on failure) above one part; a single PUT below.
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key, Body: body, ContentType: options.contentType ?? "application/octet-stream", ContentLength: size },
        partSize: this.partSize,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (error) {
      body.destroy();
      // Multipart uploads are aborted by lib-storage; a single PUT cut off may still have left a
      // short object on a lenient server (s3rver does): remove whatever is under the key.
      await this.delete(key).catch(() => undefined);
      throw new StorageError(`upload of ${Key} to bucket ${this.bucket} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (options.sha256) await this.verify(key, options.sha256, size);
    await unlink(tempPath).catch(() => undefined);
    return { size };
  }

  /** Reads the object back: it must have the size and SHA-256 the caller measured, or it is removed. */
  private async verify(key: string, sha256: string, size: number): Promise<void> {
    let actual: string;
    try {
      actual = await sha256Of(await this.read(key));
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw error instanceof StorageError ? error : new StorageError(`read-back of ${key} failed`, { cause: error });
    }
    if (actual !== sha256) {
      await this.delete(key).catch(() => undefined);
      throw new StorageError(`object ${key} does not match what was sent (sha256 ${actual}, expected ${sha256}, ${size} bytes)`);
    }
  }

  async putBuffer(key: string, data: Buffer, options: { contentType?: string } = {}): Promise<StoredObject> {
    const Key = this.objectKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: data,
          ContentType: options.contentType ?? "application/octet-stream",
          ContentLength: data.length,
        }),
      );
    } catch (error) {
      throw new StorageError(`put of ${Key} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return { size: data.length };
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const Key = this.objectKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      const body = result.Body;
      if (body instanceof Readable) return body;
      throw new StorageError(`object ${Key} came without a body stream`);
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      if (error instanceof StorageError) throw error;
      throw new StorageError(`read of ${Key} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new StorageError(`stat of ${key} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw new StorageError(`delete of ${key} failed`, { cause: error });
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw new StorageError(`bucket ${this.bucket} is not reachable (HTTP ${statusOf(error) ?? "no answer"})`, { cause: error });
    }
  }

  close(): void {
    this.client.destroy();
  }
}
