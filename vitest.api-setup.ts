// Global setup of the api project (vitest.config.ts): names this run, so the databases of the
// services shared by test files (lib/service/http/tests/harness.ts, shareTestService) carry its
// name and are dropped here when the run ends. A test never closes a shared service; the worker
// processes simply exit.
import { randomBytes } from "node:crypto";

const RUN_ID = randomBytes(5).toString("hex");
process.env.PM_TEST_RUN_ID = RUN_ID;

export async function teardown(): Promise<void> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return;
  const { Client } = await import("pg");
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like $1", [`pm_test_shared_${RUN_ID}_%`]);
    for (const { datname } of rows) {
      // The names come from the catalogue and match [a-z0-9_]: safe to quote as identifiers.
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}
