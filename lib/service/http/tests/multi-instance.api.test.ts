// Scale-out as deployed: two web instances on separate data directories (nothing shared on disk),
// one worker, one PostgreSQL, S3-compatible storage (a real S3-protocol server on loopback). A
// photo uploaded through one instance is checked by the worker (woken by NOTIFY) and read, downloaded and exported
// through the other, byte-identical; rate limits count across both. Needs PostgreSQL
// (TEST_DATABASE_URL): the embedded database is one process by design.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3TestServer, type S3TestServer } from "@/lib/testing/s3-test-server";
import type { ServiceConfig } from "@/lib/service/context";
import { startTestService, type TestService } from "./harness";
import { TestClient } from "./client";
import { photo, submitPhotos, waitForDecision } from "./photos";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
// One public origin for every instance, as behind a load balancer: tokens name it as issuer and
// audience, and each instance checks them against it.
const PUBLIC_ORIGIN = "http://photo-missions.test";

describe.runIf(process.env.TEST_DATABASE_URL)("two web instances, one worker, PostgreSQL and S3", () => {
  let s3: S3TestServer;
  let first: TestService;
  let second: TestService;
  let worker: TestService;
  let workDir: string;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    s3 = await startS3TestServer();
    workDir = await mkdtemp(join(tmpdir(), "pm-multi-"));
    const config: Partial<ServiceConfig> = {
      publicOrigin: PUBLIC_ORIGIN,
      storage: { kind: "s3", ...s3.storeConfig() },
      rateLimit: { perMinute: 1000, perHour: 10_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 },
    };
    const dataDir = async () => {
      const dir = await mkdtemp(join(tmpdir(), "pm-instance-"));
      dataDirs.push(dir);
      return dir;
    };
    first = await startTestService(config, { dataDir: await dataDir() });
    second = await startTestService(config, { databaseUrl: first.databaseUrl, dataDir: await dataDir() });
    // Polling only once a minute: work committed on a web instance reaches the worker by NOTIFY.
    worker = await startTestService(config, { databaseUrl: first.databaseUrl, dataDir: await dataDir(), worker: true, pollMs: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await worker.close();
    await second.close();
    await first.close(); // drops the database it created
    await s3.close();
    for (const dir of [...dataDirs, workDir]) await rm(dir, { recursive: true, force: true });
  });

  /** A signed CDN URL (built on the public origin) sent to a given instance. */
  const onInstance = (url: string, instance: TestService) => url.replace(PUBLIC_ORIGIN, instance.url);

  it("a photo uploaded on one instance is approved by the worker and read, downloaded and exported byte-identical on the other", async () => {
    const a = new TestClient(first);
    const b = new TestClient(second);
    const partner = await a.partner();
    const zoomerClient = await a.createZoomer();
    const zoomerToken = await a.token(zoomerClient);
    const mission = await a.createMission(partner.token, { required_images: 5 });
    const original = await photo({ seed: 81 });

    const uploaded = await submitPhotos(a, zoomerToken, mission.id, [{ bytes: original }]);
    expect(uploaded.status, uploaded.text).toBe(202);
    // Well within the worker's minute-long poll: the upload's NOTIFY woke it.
    const decided = await waitForDecision(b, partner.token, String(uploaded.body.id), 30_000);
    expect(decided.status).toBe("approved");

    // Nothing of the photo is on either instance's disk: the instances share only PostgreSQL and the bucket.
    for (const dir of dataDirs) expect(await readdir(join(dir, "photos")).catch(() => [])).toEqual([]);

    const record = await b.request<{ data: { url: string; thumbnail_url: string; sha256: string }[] }>(
      "GET",
      `/api/v1/submissions/${String(uploaded.body.id)}/images`,
      { token: partner.token },
    );
    expect(record.status).toBe(200);
    const image = record.body.data[0];
    expect(image?.sha256).toBe(sha256(original));
    const download = await fetch(onInstance(image?.url ?? "", second));
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(original));
    expect((await fetch(onInstance(image?.thumbnail_url ?? "", first))).status).toBe(200);

    const exported = await fetch(`${second.url}/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.token}` } });
    expect(exported.status).toBe(200);
    const zip = new Uint8Array(await exported.arrayBuffer());
    expect(Number(exported.headers.get("content-length"))).toBe(zip.length);
    const zipPath = join(workDir, "export.zip");
    await writeFile(zipPath, zip);
    const hashes = JSON.parse(
      execFileSync("python3", [
        "-c",
        `import zipfile,json,hashlib,sys\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps([hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()]))`,
        zipPath,
      ]).toString(),
    ) as string[];
    expect(hashes).toContain(sha256(original));
  });

  it("counts an organisation's rate limit across both instances, whichever of its clients calls", async () => {
    const a = new TestClient(first);
    const b = new TestClient(second);
    const partner = await a.partner();
    const sibling = await b.token(await b.createClient(partner.orgId, ["missions:read"]));
    const mission = await a.createMission(partner.token);
    const path = `/api/v1/missions/${mission.id}`;
    const fromA = await a.request("GET", path, { token: partner.token });
    const fromB = await b.request("GET", path, { token: sibling });
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    // One budget per organisation in PostgreSQL: the second instance counts the first's requests as
    // spent (with what the first leased and has not used yet: remaining is a lower bound across
    // instances; rate-limit-instances.api.test.ts shows the limit itself is exact).
    expect(Number(fromB.headers.get("x-ratelimit-remaining"))).toBeLessThan(Number(fromA.headers.get("x-ratelimit-remaining")));
  });
});
