// A migrated, empty PGlite cluster as a tar dump, made once and reused by every in-memory test
// database: `PGlite.create({ loadDataDir })` from it takes about a second, where a new cluster
// (initdb inside WASM) plus all migrations takes 5-10 s on a loaded 2-core machine, and the API
// suite opens about a hundred of them. The dump lives in the temp dir under a name that hashes
// the PGlite version and every migration file, so a changed migration makes a new one; it is
// written to a temporary name and renamed, so test processes making it at once cannot see half a
// file. openDatabase still runs the migrations over the loaded cluster (a no-op when current).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
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

async function makeTemplate(): Promise<Blob> {
  const path = join(tmpdir(), `photo-missions-pglite-${templateKey()}.tar`);
  try {
    return new Blob([await readFile(path)]);
  } catch {
    // Not made yet: make it (migrations run inside openDatabase) and keep it for the next process.
  }
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
