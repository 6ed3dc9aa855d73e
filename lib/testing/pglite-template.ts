// A migrated, empty PGlite cluster as a tar dump, made once and reused by every in-memory test
// database: `PGlite.create({ loadDataDir })` from it takes about a second, where a new cluster
// (initdb inside WASM) plus all migrations takes 5-10 s on a loaded 2-core machine, and the API
// suite opens about a hundred of them. The dump lives in the temp dir under a name that hashes
// the PGlite version and every migration file, so a changed migration makes a new one; it is
// written to a temporary name and renamed, so test processes making it at once cannot see half a
// file. openDatabase still runs the migrations over the loaded cluster (a no-op when current).
// Each dump is about 40 MB, and every migration change makes a new one: a process that uses a dump
// marks it used (its mtime), and one that makes a dump removes the others unused for a week (other
// checkouts' current dumps are in use, and one removed by mistake is only made again).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, utimes } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MIGRATIONS_DIR, openDatabase, type Database } from "@/lib/db/client";

let template: Promise<Blob> | undefined;

function templateKey(): string {
  const hash = createHash("sha256");
  // The package's own version: a dump is only loadable by the PGlite that made it.
  const require = createRequire(import.meta.url);
  const pgliteMain = require.resolve("@electric-sql/pglite");
  const pkg = readFileSync(join(dirname(pgliteMain), "..", "package.json"), "utf8");
  hash.update((JSON.parse(pkg) as { version?: string }).version ?? "unknown");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  for (const file of files(MIGRATIONS_DIR).sort()) {
    hash.update(file.slice(MIGRATIONS_DIR.length));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

const DUMP_PREFIX = "photo-missions-pglite-";
const UNUSED_FOR_MS = 7 * 24 * 3600_000;

/** Removes the other dumps in `dir` not used for a week (best effort: a dump in use elsewhere is made again). */
export async function removeUnusedTemplates(dir: string, keep: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [])) {
    if (!name.startsWith(DUMP_PREFIX) || !name.endsWith(".tar") || name === keep) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info || now - info.mtimeMs < UNUSED_FOR_MS) continue;
    await rm(path, { force: true }).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

async function makeTemplate(): Promise<Blob> {
  const name = `${DUMP_PREFIX}${templateKey()}.tar`;
  const path = join(tmpdir(), name);
  try {
    const bytes = await readFile(path);
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined); // used: not removed as stale by another process
    return new Blob([bytes]);
  } catch {
    // Not made yet: make it (migrations run inside openDatabase) and keep it for the next process.
  }
  await removeUnusedTemplates(tmpdir(), name);
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  try {
    const client = (database.db as unknown as { $client: { dumpDataDir(compression: "none"): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("none");
    const bytes = Buffer.from(await dump.arrayBuffer());
    const temporary = `${path}.${process.pid}.${Date.now()}`;
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, path);
    return new Blob([bytes]);
  } finally {
    await database.close();
  }
}

/** The migrated template's dump (made at most once per process, and once per migration set on disk). */
export function pgliteTemplate(): Promise<Blob> {
  template ??= makeTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

/** A fresh in-memory PGlite database, migrated, started from the template. */
export async function openTemplatePglite(): Promise<Database> {
  return openDatabase({ kind: "pglite", dataDir: null, loadDataDir: await pgliteTemplate() });
}

/**
 * Lays the migrated template out as the PGlite cluster of the data directory `dataDir` (in
 * `dataDir/pglite`, where the app keeps it), for tests that start the app as a child process on a
 * new data directory: its first start then opens a cluster instead of making one (initdb inside
 * WASM plus every migration: 45 s against 17-20 s to health on a loaded 2-core machine). PGlite
 * itself unpacks its dump; the app still runs the migrations (a no-op) and makes the directory
 * owner-only as it starts. A test of a first start on an empty directory must not call this.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = join(dataDir, "pglite");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const client = await PGlite.create(dir, { loadDataDir: await pgliteTemplate() });
  await client.close();
}
