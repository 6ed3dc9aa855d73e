// Opens the database: PGlite (Postgres in WASM, one process, data in a directory or in memory)
// by default, or a real PostgreSQL when a URL is given. Both get the same Drizzle schema and the
// same committed migrations, applied before the handle is returned.
import { readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { ensurePrivateDir, restrictTree } from "@/lib/fs/private-files";
import { log } from "@/lib/log";
import { adoptPglite } from "./pglite-statements";
import { pglitePreparedRunners, postgresPreparedRunners, type PreparedRunner, type PreparedRunners } from "./prepared-query";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

export interface Database {
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own (re-established when it
   * drops), calling `onMessage` with each NOTIFY's payload, and `onListening` with true once the
   * LISTEN holds and false when its connection is lost (notifications may be missed until true
   * again). Resolves to a function that stops it.
   */
  listen?(channel: string, onMessage: (payload: string) => void, onListening?: (listening: boolean) => void): Promise<() => Promise<void>>;
}

export type DatabaseOptions =
  | { kind: "postgres"; url: string; poolSize?: number }
  // dataDir null: in memory (tests). loadDataDir: start from this dump of a data directory (a
  // migrated template made once, lib/testing/pglite-template.ts) instead of an empty cluster;
  // migrations still run over it, so a stale dump is brought up to date.
  | { kind: "pglite"; dataDir: string | null; loadDataDir?: Blob };

export const MIGRATIONS_DIR = resolve(process.cwd(), "lib/db/migrations");

// Every instance migrating at once must not race: migrations run under this advisory lock.
const MIGRATION_LOCK_ID = 727_274_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === "postgres" ? openPostgres(options.url, options.poolSize) : openPglite(options.dataDir, options.loadDataDir);
}

async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const { Client, Pool, types } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new Pool({ connectionString: url, max: poolSize });
  // An idle connection closed by the server (restart, admin command) must not crash the process;
  // the pool replaces it on next use.
  pool.on("error", (error) => log.warn("idle PostgreSQL connection failed", {}, error));
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
  const db: Db = drizzle(pool, { schema });
  attachPreparedRunners(db, postgresPreparedRunners(pool, types, Client));
  return { db, kind: "postgres", close: () => pool.end(), listen: (channel, onMessage, onListening) => listenOn(pool, channel, onMessage, onListening) };
}

/** Channel names are ours (constants), never input: still, only plain identifiers are accepted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

async function listenOn(
  pool: import("pg").Pool,
  channel: string,
  onMessage: (payload: string) => void,
  onListening: (listening: boolean) => void = () => {},
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  /** The listening connection, and how to give it back to the pool (at most once). */
  let current: { client: import("pg").PoolClient; release: (error?: Error) => boolean } | undefined;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    retry?.unref();
  };
  const connect = async () => {
    let client: import("pg").PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      log.warn("LISTEN connection failed; polling meanwhile", { channel }, error);
      return again();
    }
    // A dropped connection can report more than one error (the server's termination message, then
    // the socket's end), and stop() may be giving it back at the same time; the pool throws on a
    // second release, so the client is released exactly once.
    let released = false;
    const held = {
      client,
      release: (error?: Error) => {
        if (released) return false;
        released = true;
        if (current === held) current = undefined;
        onListening(false);
        client.release(error);
        return true;
      },
    };
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    client.on("error", (error) => {
      if (!held.release(error)) return;
      log.warn("LISTEN connection lost; polling meanwhile", { channel }, error);
      again();
    });
    try {
      await client.query(`listen ${channel}`);
      if (stopped) held.release();
      else if (!released) {
        current = held;
        onListening(true);
      }
    } catch (error) {
      if (held.release(error instanceof Error ? error : new Error(String(error)))) {
        log.warn("LISTEN failed; polling meanwhile", { channel }, error);
        again();
      }
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const held = current;
    if (!held) return;
    await held.client.query(`unlisten ${channel}`).catch(() => undefined);
    held.release();
  };
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let releaseLock = () => {};
  let client;
  if (dataDir) {
    const dir = resolve(dataDir, "pglite");
    ensurePrivateDir(resolve(dataDir));
    ensurePrivateDir(dir);
    releaseLock = acquireDirectoryLock(resolve(dataDir, "pglite.lock"));
    client = await PGlite.create(dir);
    // PGlite lays out its cluster with mode 0666 files whatever the umask: owner-only now, before
    // anything is written (the files it creates later get PostgreSQL's own 0600).
    restrictTree(dir);
  } else {
    client = await PGlite.create(loadDataDir ? { loadDataDir } : {});
  }
  const statements = await adoptPglite(client);
  const db: Db = drizzle(client, { schema });
  await migrate(db as Parameters<typeof migrate>[0], { migrationsFolder: MIGRATIONS_DIR });
  attachPreparedRunners(db, pglitePreparedRunners(statements));
  return {
    db,
    kind: "pglite",
    close: async () => {
      await client.close();
      if (dataDir) restrictTree(resolve(dataDir, "pglite"));
      releaseLock();
    },
  };
}

/**
 * PGlite is one connection in one process: a second process opening the same directory would
 * corrupt it. A lock file naming the owner's pid refuses that with a clear message; a stale lock
 * (owner gone) is taken over.
 */
function acquireDirectoryLock(path: string): () => void {
  if (existsSync(path)) {
    const pid = Number(readFileSync(path, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
      throw new Error(
        `The embedded database in ${join(path, "..")} is in use by process ${pid}. ` +
          "Stop that process, or use the admin API / `npm run admin` against the running app instead of opening the data directory.",
      );
    }
  }
  writeFileSync(path, String(process.pid), { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Rows of a raw SQL statement; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (typeof result === "object" && result !== null && "rows" in result && Array.isArray(result.rows)) {
    return result.rows as T[];
  }
  throw new Error("unexpected result shape from db.execute");
}

/** How each open database, and each transaction while its callback runs, runs named statements (./prepared-query.ts). */
const preparedRunners = new WeakMap<Db, PreparedRunner>();

/**
 * The database's runner, and a runner for each transaction `db.transaction()` opens, held while its
 * callback runs (a transaction object kept past it runs statements unprepared). A transaction's
 * connection is drizzle's session client: a pg PoolClient, or PGlite's transaction (whose lock the
 * callback holds). A nested transaction (a savepoint) has none: there queryPrepared runs as
 * queryRows (which PGlite still prepares by its text, pglite-statements.ts).
 */
function attachPreparedRunners(db: Db, runners: PreparedRunners): void {
  preparedRunners.set(db, runners.outside);
  const begin = db.transaction.bind(db);
  db.transaction = ((work, config) =>
    begin(async (tx) => {
      // drizzle keeps both (transaction.session, session.client) out of its public types.
      const connection = (tx as unknown as { session?: { client?: unknown } }).session?.client;
      const runner = runners.inside(connection);
      if (runner) preparedRunners.set(tx, runner);
      try {
        return await work(tx);
      } finally {
        preparedRunners.delete(tx);
      }
    }, config)) as Db["transaction"];
}
const dialect = new PgDialect();
/** Statement names are ours (constants), never input. */
const STATEMENT_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Rows of a raw SQL statement run as the named prepared statement `name` (./prepared-query.ts):
 * parsed and planned once per connection, for hot statements whose planning costs more than their run.
 * One name, one text: a statement built differently needs a name of its own. Inside a transaction
 * it runs prepared on the transaction's connection while the transaction's callback runs; a
 * transaction object without a runner (nested, or used past its callback) runs it as queryRows.
 */
export async function queryPrepared<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  assertStatementName(name);
  const runner = preparedRunners.get(db);
  if (!runner) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await runner(name, text, params)) as T[];
}

export function assertStatementName(name: string): void {
  if (!STATEMENT_NAME.test(name)) throw new Error(`not a statement name: ${name}`);
}

/** How `db` runs a named statement now (the database's runner, or its transaction's while the callback runs); undefined: it runs them unprepared. */
export function preparedRunnerFor(db: Db): PreparedRunner | undefined {
  return preparedRunners.get(db);
}
