// The S3 store against a real S3-protocol server on loopback (s3rver), with a proxy that cuts
// connections part-way for the failure cases.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCuttingProxy, startS3TestServer, type CuttingProxy, type S3TestServer } from "@/lib/testing/s3-test-server";
import { ObjectNotFoundError, StorageError } from "./object-store";
import { S3ObjectStore } from "./s3-store";

let server: S3TestServer;
let proxy: CuttingProxy;
let store: S3ObjectStore;
let dir: string;

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function tempFile(data: Buffer): Promise<string> {
  const path = join(dir, `${randomBytes(6).toString("hex")}.tmp`);
  await writeFile(path, data);
  return path;
}

beforeAll(async () => {
  server = await startS3TestServer();
  proxy = await startCuttingProxy(server.port);
  store = new S3ObjectStore(server.storeConfig({ partSize: 5 * 1024 * 1024 }));
  dir = await mkdtemp(join(tmpdir(), "pm-s3-store-"));
});
afterAll(async () => {
  store.close();
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("S3ObjectStore", () => {
  it("stores a file byte for byte, consumes the temp file, and reads it whole or by range", async () => {
    const data = randomBytes(200_000);
    const path = await tempFile(data);
    const stored = await store.putFile("org_a/mission_b/img_c/original.jpg", path, { sha256: sha256(data), contentType: "image/jpeg" });
    expect(stored.size).toBe(data.length);
    expect(existsSync(path)).toBe(false);
    expect(await store.stat("org_a/mission_b/img_c/original.jpg")).toEqual({ size: data.length });
    expect(sha256(await readAll(await store.read("org_a/mission_b/img_c/original.jpg")))).toBe(sha256(data));
    const part = await readAll(await store.read("org_a/mission_b/img_c/original.jpg", { start: 1000, end: 1999 }));
    expect(part.equals(data.subarray(1000, 2000))).toBe(true);
  });

  it("uploads a large file in parts (multipart upload) and it reads back identical", async () => {
    const commands: string[] = [];
    store.client.middlewareStack.add(
      (next, context) => (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      { step: "initialize", name: "recordCommands" },
    );
    try {
      const data = randomBytes(12 * 1024 * 1024);
      const stored = await store.putFile("org_a/big/original.jpg", await tempFile(data), { sha256: sha256(data) });
      expect(stored.size).toBe(data.length);
      expect(commands).toContain("CreateMultipartUploadCommand");
      expect(commands.filter((c) => c === "UploadPartCommand")).toHaveLength(3);
      expect(commands).toContain("CompleteMultipartUploadCommand");
      expect(sha256(await readAll(await store.read("org_a/big/original.jpg")))).toBe(sha256(data));
    } finally {
      store.client.middlewareStack.remove("recordCommands");
    }
  });

  it("refuses and removes an object whose bytes are not the ones measured", async () => {
    const data = randomBytes(10_000);
    await expect(store.putFile("org_a/wrong/original.jpg", await tempFile(data), { sha256: sha256(Buffer.from("other")) })).rejects.toBeInstanceOf(
      StorageError,
    );
    expect(await store.stat("org_a/wrong/original.jpg")).toBeNull();
  });

  it("says not-found for a missing object, and refuses unsafe keys", async () => {
    await expect(store.read("org_a/none/original.jpg")).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.stat("org_a/none/original.jpg")).toBeNull();
    await store.delete("org_a/none/original.jpg");
    await expect(store.read("../etc/passwd")).rejects.toThrow(/unsafe storage key/);
  });

  it("answers a readiness probe, and fails it for a bucket that does not exist", async () => {
    await store.ping();
    const missing = new S3ObjectStore(server.storeConfig({ bucket: "no-such-bucket" }));
    await expect(missing.ping()).rejects.toBeInstanceOf(StorageError);
    missing.close();
  });

  it("an upload cut off mid-stream fails with a StorageError and leaves no object", async () => {
    const cut = new S3ObjectStore(server.storeConfig({ endpoint: proxy.endpoint }), { maxAttempts: 2 });
    proxy.cutAfter(64 * 1024, "upstream");
    try {
      const data = randomBytes(1024 * 1024);
      await expect(cut.putFile("org_a/cut/original.jpg", await tempFile(data), { sha256: sha256(data) })).rejects.toBeInstanceOf(StorageError);
      expect(proxy.cuts).toBeGreaterThan(0);
    } finally {
      proxy.cutAfter(null);
      cut.close();
    }
    // The client sees the cut at once; the S3 test server finishes the cut request a moment later
    // (it writes what arrived, then removes it as S3 would never have stored it), so the object
    // must be gone within a few seconds, not necessarily at this instant.
    const deadline = Date.now() + 10_000;
    let left = await store.stat("org_a/cut/original.jpg");
    while (left !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      left = await store.stat("org_a/cut/original.jpg");
    }
    expect(left).toBeNull();
  });

  it("a read cut off mid-stream errors the stream (no crash), and the store keeps working", async () => {
    const data = randomBytes(2 * 1024 * 1024);
    await store.putFile("org_a/readcut/original.jpg", await tempFile(data), { sha256: sha256(data) });
    const cut = new S3ObjectStore(server.storeConfig({ endpoint: proxy.endpoint }));
    proxy.cutAfter(256 * 1024, "downstream");
    try {
      const stream = await cut.read("org_a/readcut/original.jpg");
      await expect(readAll(stream)).rejects.toThrow();
    } finally {
      proxy.cutAfter(null);
      cut.close();
    }
    expect(sha256(await readAll(await store.read("org_a/readcut/original.jpg")))).toBe(sha256(data));
  });
});
