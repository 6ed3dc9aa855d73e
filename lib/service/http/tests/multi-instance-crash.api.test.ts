// Scale-out under failure, as deployed: two web instances (scripts/api-server.ts, no in-process
// worker) on separate data directories and worker processes (scripts/worker.ts), all real child
// processes on one PostgreSQL and one S3-protocol server. A worker killed (-9) mid-delivery: the
// next worker delivers the same event with the same body once the lease runs out (at-least-once:
// the receiver sees it twice, never with another payload). A web instance killed (-9) mid-upload:
// nothing of the submission is recorded or stored, and the zoomer's retry on the other instance
// is recorded once. SIGTERM to a web instance streaming an export: the archive is finished to its
// announced length, then the process exits 0. Needs PostgreSQL (TEST_DATABASE_URL).
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3ObjectStore } from "@/lib/service/storage/s3-store";
import { S3_TEST_CREDENTIALS, startS3TestServer, type S3TestServer } from "@/lib/testing/s3-test-server";
import { freePort, killHard, startAppProcess, waitForHealth, type AppProcess } from "./app-process";
import { TestClient } from "./client";
import { ADMIN_TOKEN, isolatedPostgres } from "./harness";
import { photo, submitPhotos, waitForDecision } from "./photos";
import { Receiver } from "./receiver";

const PUBLIC_ORIGIN = "http://photo-missions.test";
const SECRETS_KEY = randomBytes(32).toString("base64url");
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe.runIf(process.env.TEST_DATABASE_URL)("two web instances and a worker, killed and stopped mid-work (PostgreSQL, S3)", () => {
  let s3: S3TestServer;
  let bucket: S3ObjectStore;
  let postgres: { url: string; drop(): Promise<void> };
  let receiver: Receiver;
  const dirs: string[] = [];
  const children: AppProcess[] = [];
  const web: { a?: { url: string; child: AppProcess; dataDir: string }; b?: { url: string; child: AppProcess } } = {};
  let worker: AppProcess;

  const env = () => ({
    DATABASE_URL: postgres.url,
    SECRETS_KEY,
    ADMIN_TOKEN,
    PUBLIC_ORIGIN,
    STORAGE: "s3",
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: "true",
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    RATE_LIMIT_PER_MINUTE: "10000",
    RATE_LIMIT_PER_HOUR: "100000",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // The lease is 2 × the timeout + 2 s: a killed worker's delivery is free again after 6 s.
    WEBHOOK_TIMEOUT_MS: "2000",
    WEBHOOK_RETRY_SCALE: "0.001",
    SHUTDOWN_TIMEOUT_MS: "20000",
  });
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "pm-crash-"));
    dirs.push(dir);
    return dir;
  };
  async function startWeb(dir: string): Promise<{ url: string; child: AppProcess; dataDir: string }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = startAppProcess("scripts/api-server.ts", { ...env(), PORT: String(port), DATA_DIR: dir, RUN_WORKER: "false" });
    children.push(child);
    await waitForHealth(url, child);
    return { url, child, dataDir: dir };
  }
  async function startWorker(): Promise<AppProcess> {
    const child = startAppProcess("scripts/worker.ts", { ...env(), DATA_DIR: await dataDir() });
    children.push(child);
    return child;
  }
  async function keysOfMission(missionId: string): Promise<string[]> {
    const listed = await bucket.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (listed.Contents ?? []).map((o) => o.Key ?? "").filter((key) => key.includes(`/${missionId}/`));
  }
  async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }
  /** Instance a's client; every instance answers on its own port but shares the public origin. */
  const on = (instance: { url: string } | undefined) => new TestClient({ url: instance?.url ?? "" });

  beforeAll(async () => {
    s3 = await startS3TestServer();
    bucket = new S3ObjectStore(s3.storeConfig());
    postgres = await isolatedPostgres(process.env.TEST_DATABASE_URL ?? "");
    receiver = await Receiver.start();
    // One at a time: the first applies the migrations.
    web.a = await startWeb(await dataDir());
    web.b = await startWeb(await dataDir());
    worker = await startWorker();
  }, 240_000);
  afterAll(async () => {
    for (const child of children) await killHard(child);
    bucket?.close();
    await receiver?.close();
    await postgres?.drop();
    await s3?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it("a worker killed mid-delivery: the next worker sends the same event with the same body, logged, and nothing more", async () => {
    const api = on(web.a);
    const partner = await api.partner();
    const hook = await api.request<{ id: string }>("POST", "/api/v1/webhooks", {
      token: partner.token,
      body: { url: `${receiver.url}/crash`, events: ["mission.created"] },
    });
    expect(hook.status, hook.text).toBe(201);
    receiver.script(["hang"]);
    const mission = await on(web.b).createMission(partner.token);
    const [inFlight] = await receiver.waitFor(1, "mission.created", 90_000);
    await killHard(worker);

    worker = await startWorker();
    const [, retried] = await receiver.waitFor(2, "mission.created", 90_000);
    expect(retried?.json.id).toBe(inFlight?.json.id);
    expect(retried?.raw.equals(inFlight?.raw ?? Buffer.alloc(0))).toBe(true);
    expect((retried?.json.data as { mission?: { id?: string } }).mission?.id).toBe(mission.id);
    expect(retried?.headers["x-svc-delivery-id"]).toBe(inFlight?.headers["x-svc-delivery-id"]);

    const deadline = Date.now() + 30_000;
    let delivery: { status: string; attempt_count: number } | undefined;
    while (Date.now() < deadline) {
      [delivery] = await sql<{ status: string; attempt_count: number }>("select status, attempt_count from webhook_deliveries where endpoint_id = $1", [
        hook.body.id,
      ]);
      if (delivery?.status === "succeeded") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(delivery?.status).toBe("succeeded");
    // The killed worker's attempt left no log line (it died before recording it); the one that succeeded did.
    const attempts = await sql<{ attempt: number; status_code: number | null }>(
      "select a.attempt, a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = $1 order by a.attempt",
      [hook.body.id],
    );
    expect(attempts.at(-1)).toEqual({ attempt: delivery?.attempt_count, status_code: 200 });
    // Settled: no third request arrives.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.of("mission.created").filter((r) => r.json.id === inFlight?.json.id)).toHaveLength(2);
  }, 240_000);

  it("a web instance killed mid-upload records and stores nothing; the retry on the other instance is recorded once", async () => {
    const api = on(web.a);
    const partner = await api.partner();
    const zoomerToken = await api.token(await api.createZoomer());
    const mission = await api.createMission(partner.token, { required_images: 5 });
    const bytes = Buffer.concat([await photo({ seed: 131 }), randomBytes(512 * 1024)]);

    const boundary = "----crash-test";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cut = new Promise<string>((resolve) => {
      const req = request(`${web.a?.url ?? ""}/api/v1/missions/${mission.id}/submissions`, {
        method: "POST",
        headers: { authorization: `Bearer ${zoomerToken}`, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length) },
      });
      req.on("response", (res) => resolve(`answered ${res.statusCode ?? 0}`));
      req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.write(body.subarray(0, body.length >> 1));
    });
    // Half the photo is on its way into instance a's temp directory when the process dies.
    await new Promise((r) => setTimeout(r, 500));
    if (web.a) await killHard(web.a.child);
    expect(await cut).toMatch(/ECONNRESET|EPIPE|socket hang up/);

    expect(await sql("select id from submissions where mission_id = $1", [mission.id])).toEqual([]);
    expect(await sql("select id from images where mission_id = $1", [mission.id])).toEqual([]);
    expect(await keysOfMission(mission.id)).toEqual([]);

    const b = on(web.b);
    const retried = await submitPhotos(b, zoomerToken, mission.id, [{ bytes }]);
    expect(retried.status, retried.text).toBe(202);
    const decided = await waitForDecision(b, partner.token, String(retried.body.id), 90_000);
    expect(decided.status).toBe("approved");
    const recorded = await sql<{ sha256: string }>("select sha256 from images where mission_id = $1", [mission.id]);
    expect(recorded).toEqual([{ sha256: sha256(bytes) }]);
    expect((await keysOfMission(mission.id)).filter((key) => key.endsWith("/original.jpg"))).toHaveLength(1);
    const counted = await b.request<{ submissions: number }>("GET", `/api/v1/missions/${mission.id}`, { token: partner.token });
    expect(counted.body.submissions).toBe(1);

    // Instance a comes back on its data directory (the cut temp upload is its own, removed at start) and serves again.
    if (web.a) web.a = await startWeb(web.a.dataDir);
    expect((await on(web.a).request("GET", `/api/v1/missions/${mission.id}`, { token: partner.token })).status).toBe(200);
  }, 240_000);

  it("SIGTERM to a web instance streaming an export: every announced byte arrives, the photos byte-identical, then it exits 0", async () => {
    const b = on(web.b);
    const partner = await b.partner();
    const zoomerToken = await b.token(await b.createZoomer());
    const mission = await b.createMission(partner.token, { required_images: 10 });
    const originals: Buffer[] = [];
    for (const seed of [141, 142, 143]) {
      // Large enough that the archive is still streaming when the signal arrives.
      const bytes = Buffer.concat([await photo({ seed }), randomBytes(1024 * 1024)]);
      const res = await submitPhotos(b, zoomerToken, mission.id, [{ bytes }]);
      expect(res.status, res.text).toBe(202);
      originals.push(bytes);
    }
    const a = web.a;
    if (!a) throw new Error("instance a is not running");
    const response = await fetch(`${a.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
    expect(response.status).toBe(200);
    const declared = Number(response.headers.get("content-length"));
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    if (first.value) chunks.push(first.value);
    a.child.process.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const zip = Buffer.concat(chunks);
    expect(declared).toBeGreaterThan(3 * 1024 * 1024);
    expect(zip.length).toBe(declared);
    expect(await a.child.exited).toBe(0);
    // Each original is in the archive byte for byte (stored entries: its bytes appear whole).
    for (const original of originals) expect(zip.includes(original)).toBe(true);
  }, 240_000);
});
