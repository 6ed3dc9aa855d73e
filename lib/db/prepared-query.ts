// Named prepared statements for hot raw-SQL statements: the database parses and plans a
// statement's text once per connection and then only binds and runs it. PostgreSQL plans an
// unnamed statement every time; for a read of several CTEs that is most of its cost (the delivery
// history behind every quote, feasibility answer and order: 7 ms of planning against 0.4 ms of
// execution on PGlite, 1.4 ms in all once prepared). Used there, for the idempotency key's claim,
// the webhook worker's claim and settle, and an event's outbox write.
//
// - PostgreSQL (node-postgres): a query config with a `name`, which pg prepares on each connection
//   the first time and reuses after — on the pool, or on a transaction's own connection.
// - PGlite (one connection): the path its drizzle queries take too (pglite-statements.ts): Parse
//   with a name once, then Bind, Describe, Execute and Sync in one buffer, under PGlite's own locks.
// Rows come back as `db.execute` gives them through drizzle (dates and intervals as the database's
// text). `queryPrepared` (client.ts) picks the runner: the database's, or the transaction's while
// its callback runs.
import type { ClientBase, Pool, types as PgTypes } from "pg";
import type { PgliteStatements } from "./pglite-statements";
import { TEXT_TYPES } from "./text-types";

/** How a database runs a named statement (its text with $n parameters): its rows. */
export type PreparedRunner = (name: string, text: string, params: unknown[]) => Promise<unknown[]>;

/** A database's runners: outside any transaction, and inside one (null: that transaction runs statements unprepared). */
export interface PreparedRunners {
  outside: PreparedRunner;
  inside: (connection: unknown) => PreparedRunner | null;
}

/** Named statements over a node-postgres pool, or a transaction's connection, with pg's type parsers `types`. */
export function postgresPreparedRunners(pool: Pool, types: typeof PgTypes, Client: new () => ClientBase): PreparedRunners {
  const asText = (value: string) => value;
  const getTypeParser = ((id: number, format?: "text" | "binary") =>
    TEXT_TYPES.includes(id) ? asText : types.getTypeParser(id, format ?? "text")) as typeof types.getTypeParser;
  const on =
    (queryable: Pool | ClientBase): PreparedRunner =>
    async (name, text, params) =>
      (await queryable.query({ name, text, values: params, types: { getTypeParser } })).rows;
  return { outside: on(pool), inside: (connection) => (connection instanceof Client ? on(connection) : null) };
}

/** Named statements over this PGlite instance's statements (pglite-statements.ts): `inside` is for the transaction its `transaction()` callback is running. */
export function pglitePreparedRunners(statements: PgliteStatements): PreparedRunners {
  const on =
    (inTransaction: boolean): PreparedRunner =>
    async (name, text, params) =>
      (await statements.run({ name, text, params, inTransaction })).rows;
  return { outside: on(false), inside: () => on(true) };
}
