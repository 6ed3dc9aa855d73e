// The databases a benchmark measures on: the embedded PGlite always, and PostgreSQL when a server
// is given (TEST_DATABASE_URL): a database of the run's own is created on it and dropped after.
import type { ApiPostgres } from "./targets";
import { dedicatedDatabase } from "./webhook-service";

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
