// The database of this test run, opened directly (no service): an isolated PostgreSQL database on
// TEST_DATABASE_URL's server when it is set, else an in-memory PGlite from the migrated template.
// On PostgreSQL one connection, so the statements it prepared are the ones pg_prepared_statements
// lists (the prepared-statement tests of lib/db).
import { openDatabase, type Database } from "@/lib/db/client";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { isolatedPostgres } from "./harness";

export interface RunDatabase {
  database: Database;
  /** Closes it, and drops the PostgreSQL database. */
  close(): Promise<void>;
}

export async function openRunDatabase(): Promise<RunDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const database = await openTemplatePglite();
    return { database, close: () => database.close() };
  }
  const postgres = await isolatedPostgres(server);
  const database = await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 1 });
  return {
    database,
    close: async () => {
      await database.close();
      await postgres.drop();
    },
  };
}
