// Named prepared statements for hot raw-SQL statements: the database parses and plans a
// statement's text once per connection and then only binds and runs it. PostgreSQL plans an
// unnamed statement every time; for a read of several CTEs that is most of its cost (the delivery
// history behind every quote, feasibility answer and order: 7 ms of planning against 0.4 ms of
// execution on PGlite, 1.4 ms in all once prepared). Used there, for the idempotency key's claim,
// the webhook worker's claim and settle, and an event's outbox write.
//
// - PostgreSQL (node-postgres): a query config with a `name`, which pg prepares on each connection
//   the first time and reuses after — on the pool, or on a transaction's own connection.
// - PGlite (one connection): Parse with a name once, then Bind, Describe, Execute and Sync in one
//   buffer through its protocol interface (`execProtocol`), under the same locks its own `query`
//   takes: outside a transaction both (so a statement never runs inside another caller's
//   transaction), inside one only the query lock (the transaction holds the other).
// Rows come back as `db.execute` gives them through drizzle (dates and intervals as the database's
// text). `queryPrepared` (client.ts) picks the runner: the database's, or the transaction's while
// its callback runs.
import type { PGlite } from "@electric-sql/pglite";
import type { ClientBase, Pool, types as PgTypes } from "pg";
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

/** Named statements over this PGlite instance (after adoptTextTypes): `inside` is for the transaction its `transaction()` callback is running. */
export async function pglitePreparedRunners(client: PGlite): Promise<PreparedRunners> {
  const { parse, protocol } = await import("@electric-sql/pglite");
  const { serialize } = protocol;
  // PGlite's own parsers, which read drizzle's text types as text (adoptTextTypes, done when the
  // database opened): passed as an option, parseResults would spread them into a new object per call.
  const { parsers } = client;
  /** Each prepared statement's text and parameter types, as this connection knows them. */
  const statements = new Map<string, { text: string; paramTypes: number[] }>();
  /**
   * Sends the messages as one buffer ending in Sync, so the backend returns to idle whatever
   * happens (an error skips to the Sync), in one trip instead of one per message; throws the
   * database's error, if any.
   */
  const send = async (parts: Uint8Array[]) => {
    const all = [...parts, serialize.sync()];
    const buffer = new Uint8Array(all.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of all) {
      buffer.set(part, at);
      at += part.length;
    }
    return (await client.execProtocol(buffer, { syncToFs: false })).messages;
  };
  const prepare = async (name: string, text: string) => {
    const known = statements.get(name);
    if (known) {
      if (known.text !== text) throw new Error(`statement ${name} was prepared with another text`);
      return known;
    }
    const described = await send([serialize.parse({ name, text }), serialize.describe({ type: "S", name })]);
    const statement = { text, paramTypes: parse.parseDescribeStatementResults(described) };
    statements.set(name, statement);
    return statement;
  };
  const run = async (name: string, text: string, params: unknown[], inTransaction: boolean) => {
    const { paramTypes } = await prepare(name, text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await send([serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({})]);
    // As PGlite's query() does after a statement outside a transaction (a no-op unless it wrote);
    // a transaction's writes are synced at its commit.
    if (!inTransaction) await client.syncToFs();
    const [result] = parse.parseResults(messages, parsers, { rowMode: "object" });
    return result?.rows ?? [];
  };
  return {
    // The locks PGlite's own query() takes: no other caller's transaction is open while this runs.
    outside: (name, text, params) => client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run(name, text, params, false))),
    // Inside a transaction, which holds the transaction lock: the query lock only, as its own query() does.
    inside: () => (name, text, params) => client._runExclusiveQuery(() => run(name, text, params, true)),
  };
}
