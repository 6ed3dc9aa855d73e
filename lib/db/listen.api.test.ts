// LISTEN/NOTIFY on a real PostgreSQL (lib/db/client.ts `listen`): notifications arrive, and when
// the server terminates the listening connection (an administrator, a failover) the connection
// is given back once and re-established — no process-level error, and notifications arrive again;
// after stop, the connection idles in the pool and its end is none of the listener's business.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedPostgres } from "@/lib/service/http/tests/harness";
import { openDatabase, queryRows, type Database } from "./client";

const server = process.env.TEST_DATABASE_URL;
const CHANNEL = "listen_test";

describe.skipIf(!server)("LISTEN on PostgreSQL", () => {
  let database: Database;
  let postgres: { url: string; drop(): Promise<void> };
  const received: string[] = [];

  beforeAll(async () => {
    postgres = await isolatedPostgres(server ?? "");
    database = await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 4 });
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });

  /** Notifies until `payload` has arrived (a reconnect takes about a second). */
  async function arrives(payload: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!received.includes(payload)) {
      if (Date.now() > deadline) throw new Error(`"${payload}" never arrived; got ${JSON.stringify(received)}`);
      await database.db.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("delivers notifications, survives the server terminating its connection, and stops", async () => {
    const { listen } = database;
    if (!listen) throw new Error("PostgreSQL databases listen");
    const stop = await listen(CHANNEL, (payload) => received.push(payload));
    await arrives("before");

    const terminated = await queryRows<{ done: boolean }>(
      database.db,
      sql`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query = ${`listen ${CHANNEL}`}`,
    );
    expect(terminated).toEqual([{ done: true }]);
    await arrives("after the termination");

    await stop();
    received.length = 0;
    await database.db.execute(sql`select pg_notify(${CHANNEL}, 'after stop')`);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([]);

    // The connection it gave back now idles in the pool; the server ending it (as a forced drop of
    // the database does) must not reach the listener's handler again (a second release throws).
    const ended = await queryRows<{ done: boolean }>(
      database.db,
      sql`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect(ended.length).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
  });
});
