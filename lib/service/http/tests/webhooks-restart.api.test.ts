// Kill -9 the app while a webhook is in flight, start it again on the same data: the delivery is
// retried, with the same event id and body — a mission event, and an order's photos.delivered.
// Runs the real server script in a child process.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { seedPgliteDataDir } from "@/lib/testing/pglite-template";
import { square } from "./client";
import { isolatedPostgres } from "./harness";
import { Receiver } from "./receiver";
import { freePort } from "./app-process";

const ADMIN = "restart-test-admin-token-0123456789abcdef";
let dataDir: string;
let port: number;
let receiver: Receiver;
let child: ChildProcess | undefined;
let postgres: { url: string; drop(): Promise<void> } | undefined;
// With DATABASE_URL the service never generates its sealing key: every instance must share one.
const SECRETS_KEY = randomBytes(32).toString("base64url");
/** What the app last wrote to stderr: the reason when it does not start. */
let stderrTail = "";

async function startApp(): Promise<void> {
  // node itself (tsx as a loader), not the tsx CLI: the CLI runs the app in a grandchild that a
  // SIGKILL of the CLI would leave running — and then nothing would really have died.
  child = spawn(process.execPath, ["--import", "tsx", "scripts/api-server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url ?? "",
      SECRETS_KEY: postgres ? SECRETS_KEY : "",
      ADMIN_TOKEN: ADMIN,
      DEMO: "off",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_TIMEOUT_MS: "1000",
      WEBHOOK_RETRY_SCALE: "0.001",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  stderrTail = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-2000)));
  // A cold start (tsx transpiling, PGlite's WASM, migrations) takes seconds, more on a loaded machine.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`app did not start (exit code ${child.exitCode}): ${stderrTail}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Kills the app with SIGKILL, checks that nothing answers any more, and starts it again on the same data. */
async function killAndRestart(): Promise<void> {
  const killed = child;
  killed?.kill("SIGKILL");
  await new Promise((r) => killed?.once("exit", r));
  // Really gone: nothing answers on the port until the new process is up.
  expect(
    await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => "up",
      () => "down",
    ),
  ).toBe("down");
  await startApp();
}

async function call<T>(method: string, path: string, body: unknown, token = ADMIN): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "pm-restart-"));
  if (process.env.TEST_DATABASE_URL) postgres = await isolatedPostgres(process.env.TEST_DATABASE_URL);
  // On PGlite the first start opens the migrated template's cluster instead of making one (seconds).
  else await seedPgliteDataDir(dataDir);
  port = await freePort();
  receiver = await Receiver.start();
  await startApp();
}, 120_000);
afterAll(async () => {
  child?.kill("SIGKILL");
  await new Promise((r) => setTimeout(r, 200));
  await postgres?.drop();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a delivery in flight when the process dies", () => {
  it("is delivered after restart with the same event id and body", async () => {
    const org = await call<{ id: string }>("POST", "/api/admin/v1/orgs", { name: "Restart" });
    const client = await call<{ client_id: string; client_secret: string }>("POST", `/api/admin/v1/orgs/${org.id}/clients`, {
      name: "c",
      scopes: ["missions:write", "webhooks:manage"],
    });
    const { access_token: token } = await call<{ access_token: string }>("POST", "/api/v1/auth/token", { grant_type: "client_credentials", ...client });
    await call("POST", "/api/v1/webhooks", { url: `${receiver.url}/restart`, events: ["mission.created"] }, token);

    receiver.script(["hang"]);
    await call("POST", "/api/v1/missions", { title: "Crash me", bounds: square(), required_images: 1 }, token);
    const [inFlight] = await receiver.waitFor(1);
    await killAndRestart();
    const [, retried] = await receiver.waitFor(2, undefined, 20_000);
    expect(retried?.json.id).toBe(inFlight?.json.id);
    expect(retried?.raw.equals(inFlight?.raw ?? Buffer.alloc(0))).toBe(true);
    // A later attempt of the same delivery: 2, or more when an attempt after the restart timed out
    // on a loaded machine (the attempt count is the delivery's, so it never starts again at 1).
    expect(Number(retried?.headers["x-svc-attempt"])).toBeGreaterThanOrEqual(2);
    expect(retried?.headers["x-svc-delivery-id"]).toBe(inFlight?.headers["x-svc-delivery-id"]);
  }, 180_000);

  it("redelivers an order's photos.delivered in flight at the kill, the same event and bytes, and the order still ends fulfilled", async () => {
    const org = await call<{ id: string }>("POST", "/api/admin/v1/orgs", { name: "Restart orders" });
    const { api_key: key } = await call<{ api_key: string }>("POST", `/api/admin/v1/orgs/${org.id}/api-keys`, { name: "orders" });
    await call("POST", "/api/orders/v1/delivery-secret", {}, key);
    // A place where it is about noon now, so a daylight photo taken now passes whenever this runs.
    const now = new Date();
    let lng = (12 - now.getUTCHours() - now.getUTCMinutes() / 60) * 15;
    if (lng < -180) lng += 360;
    const target = { lat: 20, lng };
    const order = await call<{ id: string }>(
      "POST",
      "/api/orders/v1/orders",
      {
        category: "cultural_exterior",
        requirements: { angles: ["overview"], time_of_day: "daylight" },
        locations: [{ location_id: "loc_restart", name: "Restart Tower", coordinates: target }],
        delivery: { webhook_url: `${receiver.url}/orders` },
      },
      key,
    );
    await call("POST", `/api/orders/v1/orders/${order.id}/confirm`, { payment_method: "card" }, key);

    const zoomer = await call<{ client_id: string; client_secret: string }>("POST", "/api/admin/v1/zoomers", { name: "Restart zoomer" });
    const { access_token: zt } = await call<{ access_token: string }>("POST", "/api/v1/auth/token", {
      grant_type: "client_credentials",
      client_id: zoomer.client_id,
      client_secret: zoomer.client_secret,
    });
    const camera = { lat: target.lat - 20 / 111_320, lng: target.lng };
    const near = await fetch(`http://127.0.0.1:${port}/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, {
      headers: { authorization: `Bearer ${zt}` },
    });
    const [task] = ((await near.json()) as { data: { id: string }[] }).data;
    if (!task) throw new Error("no task near the camera");
    await call("POST", `/api/v1/field/assignments/${task.id}/take`, {}, zt);

    receiver.hangNextOf("photos.delivered");
    const form = new FormData();
    const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 4242 });
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "task.jpg");
    const upload = await fetch(`http://127.0.0.1:${port}/api/v1/field/assignments/${task.id}/photo`, {
      method: "POST",
      headers: { authorization: `Bearer ${zt}` },
      body: form,
    });
    expect(upload.status).toBe(202);
    // QA, verification and the set's delivery run in the app; the receiver holds the delivery open.
    const [inFlight] = await receiver.waitFor(1, "photos.delivered", 90_000);
    await killAndRestart();

    const [, retried] = await receiver.waitFor(2, "photos.delivered", 60_000);
    expect(retried?.json.id).toBe(inFlight?.json.id);
    expect(retried?.raw.equals(inFlight?.raw ?? Buffer.alloc(0))).toBe(true);
    expect(retried?.headers["x-svc-delivery-id"]).toBe(inFlight?.headers["x-svc-delivery-id"]);
    expect((retried?.json.data as { order_id: string; photos: unknown[] }).photos).toHaveLength(1);
    const deadline = Date.now() + 30_000;
    let status = "";
    while (Date.now() < deadline && status !== "fulfilled") {
      const res = await fetch(`http://127.0.0.1:${port}/api/orders/v1/orders/${order.id}`, { headers: { authorization: `Bearer ${key}` } });
      status = ((await res.json()) as { status: string }).status;
      if (status !== "fulfilled") await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe("fulfilled");
  }, 240_000);
});
