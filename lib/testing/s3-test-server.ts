// A real S3-protocol server on loopback for tests (s3rver: the S3 REST API over a directory), and a
// TCP proxy in front of it that can cut connections part-way, to test a store failing mid-stream.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createConnection, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { S3StoreConfig } from "@/lib/service/storage/s3-store";

export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export interface S3TestServer {
  endpoint: string;
  port: number;
  bucket: string;
  /** Store settings for this server (path-style, test credentials); `endpoint` overrides the address. */
  storeConfig(overrides?: Partial<S3StoreConfig>): S3StoreConfig;
  close(): Promise<void>;
}

/** Starts s3rver in a child process (lib/testing/s3rver-child.mjs says why) on a fresh directory. */
export async function startS3TestServer(bucket = "photos"): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), "pm-s3-"));
  const script = fileURLToPath(new URL("./s3rver-child.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, directory, bucket], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, "exit").then(([code]) => ({ exitCode: String(code) }));
  const first = once(lines, "line").then(([line]) => JSON.parse(String(line)) as { port: number });
  const started = await Promise.race([first, exited]);
  lines.close();
  if (!("port" in started)) throw new Error(`s3rver exited (${started.exitCode}) before listening`);
  const { port } = started;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    bucket,
    storeConfig: (overrides = {}) => ({
      bucket,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      prefix: "",
      credentials: { ...S3_TEST_CREDENTIALS },
      ...overrides,
    }),
    close: async () => {
      if (child.exitCode === null) {
        const gone = once(child, "exit");
        child.kill("SIGTERM");
        await gone;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export interface CuttingProxy {
  endpoint: string;
  /**
   * From now on, every connection is cut after this many more bytes in the given direction
   * (`upstream`: request bytes to the server, `downstream`: response bytes to the client);
   * `null` lets traffic through again.
   */
  cutAfter(bytes: number | null, direction?: "upstream" | "downstream"): void;
  /** Connections cut so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** A TCP proxy to 127.0.0.1:targetPort that passes traffic through until told to cut it. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let limit: { bytes: number; direction: "upstream" | "downstream" } | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    sockets.add(client).add(upstream);
    // Counted from when the rule was set, on every connection (kept-alive ones too).
    let counted = 0;
    let countedFor: typeof limit = null;
    const cut = () => {
      cuts++;
      client.destroy();
      upstream.destroy();
    };
    const forward = (from: Socket, to: Socket, direction: "upstream" | "downstream") => {
      from.on("data", (chunk: Buffer) => {
        const rule = limit;
        if (rule && rule.direction === direction) {
          if (countedFor !== rule) {
            countedFor = rule;
            counted = 0;
          }
          const room = rule.bytes - counted;
          if (room <= 0) return;
          counted += chunk.length;
          if (chunk.length >= room) {
            to.write(chunk.subarray(0, room), () => cut());
            return;
          }
        }
        to.write(chunk);
      });
    };
    forward(client, upstream, "upstream");
    forward(upstream, client, "downstream");
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cutAfter: (bytes, direction = "upstream") => {
      limit = bytes === null ? null : { bytes, direction };
    },
    get cuts() {
      return cuts;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
