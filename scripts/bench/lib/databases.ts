// The databases a benchmark measures on: the embedded PGlite always, and PostgreSQL when a server
// is given (TEST_DATABASE_URL): a database of the run's own is created on it and dropped after.
// Also: an API target's database opened by the runner (seeding, reading back), and a database
// URL as a report may show it.
import { hostname } from "node:os";
import { isProcessAlive, openDatabase, type Database } from "@/lib/db/client";
import type { ApiPostgres } from "./targets";

export type DatabaseKind = "PGlite" | "PostgreSQL";

/** The operator token of a PostgreSQL target (the service needs ADMIN_TOKEN there; a run's throwaway database). */
export const BENCH_ADMIN_TOKEN = `adm_${"b".repeat(40)}`;

/** Runs `measure` on PGlite, then on a dedicated PostgreSQL database when `databaseUrl` is set. */
export async function onEachDatabase<R>(
  databaseUrl: string | undefined,
  prefix: string,
  measure: (database: DatabaseKind, detail: string, postgres: ApiPostgres | undefined) => Promise<R>,
): Promise<R[]> {
  const results = [await measure("PGlite", "embedded, in the API's process (fresh DATA_DIR)", undefined)];
  if (!databaseUrl) return results;
  const dedicated = await dedicatedDatabase(databaseUrl, prefix);
  try {
    const detail = `${dedicated.version}, database ${dedicated.name} created for the run on the given server, pool 10 (the service's default), in another process`;
    results.push(await measure("PostgreSQL", detail, { url: dedicated.url, adminToken: BENCH_ADMIN_TOKEN }));
  } finally {
    await dedicated.drop();
  }
  return results;
}

/** A database URL as reports and results may show it: without its credentials. */
export const redactUrl = (url: string): string => url.replace(/\/\/[^@]*@/, "//…@");

/** Where an API target kept its data: its PGlite directory, or its PostgreSQL database. */
export type ApiDatabaseLocation = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/**
 * An API target's database opened by the runner, to seed it before the API starts or read it
 * after the API stopped (PGlite allows one process per directory); one connection on PostgreSQL.
 */
export function openApiDatabase(where: ApiDatabaseLocation): Promise<Database> {
  return openDatabase(where.kind === "pglite" ? { kind: "pglite", dataDir: where.dataDir } : { kind: "postgres", url: where.url, poolSize: 1 });
}

// ---- PostgreSQL: a dedicated database per run --------------------------------------------------
// The service's workers claim every due job and delivery in their database, whoever enqueued it; a
// shared test database would let a concurrently running test suite's worker take (and time) ours,
// and ours take theirs. So a run creates its own database next to the given one and drops it
// after. The name carries host and pid, so the next run can drop one left by a run that was killed.

const hostTag = () =>
  hostname()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 20) || "host";

async function adminQuery<T>(url: string, work: (query: (text: string) => Promise<T[]>) => Promise<void>): Promise<void> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await work(async (text) => (await client.query(text)).rows as T[]);
  } finally {
    await client.end();
  }
}

async function dropStaleDatabases(url: string, query: (text: string) => Promise<{ datname: string }[]>, prefix: string): Promise<void> {
  const mine = `${prefix}${hostTag()}_`;
  for (const { datname } of await query(`select datname from pg_database where datname like '${prefix}%'`)) {
    const pid = Number(datname.slice(mine.length));
    if (datname.startsWith(mine) && Number.isInteger(pid) && !isProcessAlive(pid)) {
      console.error(`[bench] dropping ${datname}, left by an interrupted run (pid ${pid} is gone) on ${redactUrl(url)}`);
      await query(`drop database if exists "${datname}" with (force)`);
    }
  }
}

/** Creates the run's database (named <prefix><host>_<pid>); returns its URL and how to drop it. */
export async function dedicatedDatabase(url: string, prefix: string): Promise<{ url: string; name: string; version: string; drop: () => Promise<void> }> {
  const name = `${prefix}${hostTag()}_${process.pid}`;
  let version = "";
  await adminQuery<{ datname: string; server_version?: string }>(url, async (query) => {
    await dropStaleDatabases(url, query, prefix);
    await query(`drop database if exists "${name}" with (force)`);
    await query(`create database "${name}"`);
    version = (await query("show server_version"))[0]?.server_version ?? "?";
  });
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    name,
    version,
    drop: () => adminQuery(url, (query) => dropWhenReleased(query, name)),
  };
}

/**
 * Drops the run's database once the service's pool has let go of it. pg's pool.end() resolves
 * when its clients were told to end, not when their backends are gone; forcing the drop at once
 * would kill a backend still saying goodbye, and the pool would raise that as an error.
 */
async function dropWhenReleased(query: (text: string) => Promise<unknown[]>, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await query(`drop database if exists "${name}"`);
      return;
    } catch (error) {
      // 55006: still being accessed by other users (the backends are closing).
      if ((error as { code?: unknown }).code !== "55006") throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await query(`drop database if exists "${name}" with (force)`);
}
