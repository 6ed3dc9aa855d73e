// A fresh data directory, started as `npm start` starts it (embedded database, operator token, key
// file, photo store, a photo through QA so previews exist), under the most permissive umask:
// every directory must be 0700 and every file 0600, and the key that seals secrets must live in
// its own owner-only directory, outside the database's.
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { startRuntime, type ServiceRuntime } from "@/lib/runtime/runtime";
import { square } from "./client";
import { photo } from "./photos";

let root: string;
let dataDir: string;
let runtime: ServiceRuntime | undefined;
let previousUmask: number;

function modes(dir: string): { path: string; kind: "dir" | "file"; mode: string }[] {
  const out: { path: string; kind: "dir" | "file"; mode: string }[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    out.push({ path: relative(dataDir, path) || ".", kind: stats.isDirectory() ? "dir" : "file", mode: (stats.mode & 0o777).toString(8) });
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}

const notPrivate = (entries: ReturnType<typeof modes>) => entries.filter((e) => e.mode !== (e.kind === "dir" ? "700" : "600"));

async function call(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (typeof init.body === "string") headers.set("content-type", "application/json");
  if (!runtime) throw new Error("not started");
  const res = await runtime.app.request(path, { ...init, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  previousUmask = process.umask(0o000);
  root = await mkdtemp(join(tmpdir(), "pm-datadir-"));
  dataDir = join(root, "data");
  const env = parseEnv({ DATA_DIR: dataDir, DEMO: "off", RUN_WORKER: "true", NODE_ENV: "test", PORT: "3999", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  runtime = await startRuntime(env);

  const admin = (path: string, body: unknown) =>
    call(`/api/admin/v1${path}`, { method: "POST", token: runtime?.ctx.config.adminToken, body: JSON.stringify(body) });
  const org = await admin("/orgs", { name: "Modes" });
  const client = await admin(`/orgs/${String(org.body.id)}/clients`, { name: "c", scopes: ["missions:write", "submissions:read", "webhooks:manage"] });
  const token = async (c: Record<string, unknown>) =>
    String(
      (
        await call("/api/v1/auth/token", {
          method: "POST",
          body: JSON.stringify({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret }),
        })
      ).body.access_token,
    );
  const partnerToken = await token(client.body);
  const mission = await call("/api/v1/missions", {
    method: "POST",
    token: partnerToken,
    body: JSON.stringify({ title: "Modes", bounds: square(), required_images: 5 }),
  });
  await call("/api/v1/webhooks", { method: "POST", token: partnerToken, body: JSON.stringify({ url: "http://127.0.0.1:59999/hook" }) });
  const zoomer = await admin("/zoomers", { name: "z" });
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }), "a.jpg");
  const submitted = await runtime.app.request(`/api/v1/missions/${String(mission.body.id)}/submissions`, {
    method: "POST",
    headers: { authorization: `Bearer ${await token(zoomer.body)}` },
    body: form,
  });
  expect(submitted.status).toBe(202);
  const { id } = (await submitted.json()) as { id: string };
  // A resumable upload left half-way: its bytes and record in DATA_DIR/tus-uploads.
  const b64 = (v: string) => Buffer.from(v).toString("base64");
  const partial = await runtime.app.request("/api/v1/field/uploads", {
    method: "POST",
    headers: {
      authorization: `Bearer ${await token(zoomer.body)}`,
      "tus-resumable": "1.0.0",
      "upload-length": "100000",
      "upload-metadata": `target ${b64(String(mission.body.id))},angle ${b64("front")}`,
      "content-type": "application/offset+octet-stream",
    },
    body: new Uint8Array((await photo()).subarray(0, 5000)),
  });
  expect(partial.status).toBe(201);
  // QA writes the preview and thumbnail.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const sub = await call(`/api/v1/submissions/${id}`, { token: partnerToken });
    if (sub.body.status === "approved" || sub.body.status === "rejected") break;
    if (Date.now() > deadline) throw new Error("QA did not finish");
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  process.umask(previousUmask);
  await rm(root, { recursive: true, force: true });
});

describe("a fresh data directory under umask 000", () => {
  it("holds the database, the photos with their derivatives, the operator token and the key file", () => {
    const paths = modes(dataDir).map((e) => e.path);
    expect(paths).toContain("admin-token");
    expect(paths).toContain(join("keys", "secrets.key"));
    expect(paths.some((p) => p.startsWith("pglite/"))).toBe(true);
    expect(paths.some((p) => /^photos\/.+\/preview\.[a-z]+$/.test(p))).toBe(true);
  });

  it("while running: every directory is 0700 and every file 0600", () => {
    expect(notPrivate(modes(dataDir))).toEqual([]);
  });

  it("keeps the sealing key apart from the database files", () => {
    expect(existsSync(join(dataDir, "pglite", "keys"))).toBe(false);
    const found = modes(join(dataDir, "pglite")).filter((e) => e.path.includes("secrets.key"));
    expect(found).toEqual([]);
  });

  it("after stopping, still every directory 0700 and every file 0600", async () => {
    await runtime?.stop();
    runtime = undefined;
    expect(notPrivate(modes(dataDir))).toEqual([]);
  });

  it("a data directory left world-readable by an older version is fixed at the next start", async () => {
    const old = join(root, "old");
    mkdirSync(join(old, "photos", "x"), { recursive: true, mode: 0o755 });
    writeFileSync(join(old, "photos", "x", "original.jpg"), "bytes", { mode: 0o644 });
    writeFileSync(join(old, "admin-token"), `adm_${"x".repeat(40)}\n`, { mode: 0o644 });
    const restarted = await startRuntime(parseEnv({ DATA_DIR: old, DEMO: "off", RUN_WORKER: "false", NODE_ENV: "test", PORT: "3999" }));
    try {
      expect(notPrivate(modes(old)).map((e) => e.path)).toEqual([]);
    } finally {
      await restarted.stop();
    }
  });
});
