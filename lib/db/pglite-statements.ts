// PGlite as drizzle uses it, made cheaper per statement. Three costs, each of every query:
//
// 1. Parsers: drizzle passes parsers for its text types (text-types.ts) with every query, and
//    PGlite spreads its own 300-odd parsers and those into a new object for each result: 130 µs.
//    The instance reads those types as text itself now, and the option is dropped.
// 2. Planning: PostgreSQL plans an unnamed statement every time. Drizzle builds the same text for
//    the same query, so each data statement (select, insert, update, delete, with) is prepared
//    once under a name of its own and then only bound and run; the 500 most recently used stay
//    prepared (the least recent is closed when a new one comes). Other statements (DDL, SET, a
//    query with a blob) run as PGlite runs them.
// 3. Round trips: PGlite's query() enters the WebAssembly backend once per protocol message (six a
//    query); a prepared statement goes in once, its Bind, Describe, Execute and Sync in one buffer.
//
// The same path runs the statements queryPrepared names (prepared-query.ts). Locks are PGlite's
// own: outside a transaction the transaction lock and the query lock (a statement never runs
// inside another caller's transaction), inside one the query lock (the transaction holds the other).
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import { TEXT_TYPES } from "./text-types";

/** Statements named by their text that stay prepared; the least recently used is closed beyond this. */
const CACHED_STATEMENTS = 500;
/** Statements whose plan is worth keeping: data statements (a CTE may write too). */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
const asText = (value: string) => value;
const TEXT_TYPE_KEYS = new Set(TEXT_TYPES.map(String));
/** Whether a query's parsers are only drizzle's text types (none counts), which the instance reads as text itself. */
const onlyTextTypes = (parsers: object | undefined) => parsers === undefined || Object.keys(parsers).every((type) => TEXT_TYPE_KEYS.has(type));

export interface RunOptions {
  /** The statement's name; null: named by its text, kept among the most recently used. */
  name: string | null;
  text: string;
  params: unknown[];
  rowMode?: "object" | "array";
  /** Run inside the transaction whose callback is running (it holds the transaction lock). */
  inTransaction: boolean;
}

export interface PgliteStatements {
  run(options: RunOptions): Promise<Results>;
}

/**
 * Reads drizzle's text types as text on `client` itself and routes its queries — in and out of
 * transactions — through prepared statements. Call once, when the client is ready (its array
 * parsers are set) and before drizzle uses it.
 */
export async function adoptPglite(client: PGlite): Promise<PgliteStatements> {
  const { parse, protocol } = await import("@electric-sql/pglite");
  const { serialize } = protocol;
  for (const id of TEXT_TYPES) client.parsers[id] = asText;
  const { parsers } = client;

  /** Prepared statements by name: their text and parameter types, as this connection knows them. */
  const prepared = new Map<string, { text: string; paramTypes: number[] }>();
  /** Names of the statements named by their text, least recently used first. */
  const byText = new Map<string, string>();
  let counter = 0;
  /** Statements to close before the next message goes in (evicted, or stale). */
  let toClose: string[] = [];

  /** Sends the messages and a Sync as one buffer (an error skips to the Sync, so the backend is ready after); throws the database's error. */
  const send = async (parts: Uint8Array[]) => {
    const closing = toClose.map((name) => serialize.close({ type: "S", name }));
    toClose = [];
    const all = [...closing, ...parts, serialize.sync()];
    const buffer = new Uint8Array(all.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of all) {
      buffer.set(part, at);
      at += part.length;
    }
    return (await client.execProtocol(buffer, { syncToFs: false })).messages;
  };

  const prepare = async (name: string, text: string) => {
    const known = prepared.get(name);
    if (known) {
      if (known.text !== text) throw new Error(`statement ${name} was prepared with another text`);
      return known;
    }
    const described = await send([serialize.parse({ name, text }), serialize.describe({ type: "S", name })]);
    const statement = { text, paramTypes: parse.parseDescribeStatementResults(described) };
    prepared.set(name, statement);
    return statement;
  };

  /** The name of the statement for `text`, most recently used now; the least recent closed beyond the cache's size. */
  const nameFor = (text: string) => {
    let name = byText.get(text);
    if (name) byText.delete(text);
    else {
      name = `~${(counter++).toString(36)}`;
      if (byText.size >= CACHED_STATEMENTS) {
        const [oldestText, oldest] = byText.entries().next().value ?? [];
        if (oldestText !== undefined && oldest !== undefined) {
          byText.delete(oldestText);
          prepared.delete(oldest);
          toClose.push(oldest);
        }
      }
    }
    byText.set(text, name);
    return name;
  };

  const execute = async ({ name, text, params, rowMode = "object", inTransaction }: RunOptions): Promise<Results> => {
    const statementName = name ?? nameFor(text);
    const { paramTypes } = await prepare(statementName, text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await send([serialize.bind({ statement: statementName, values }), serialize.describe({ type: "P" }), serialize.execute({})]);
    // As PGlite's query() does after a statement outside a transaction (a no-op unless it wrote);
    // a transaction's writes are synced at its commit.
    if (!inTransaction) await client.syncToFs();
    return parse.parseResults(messages, parsers, { rowMode })[0] ?? { rows: [], fields: [] };
  };

  const run = async (options: RunOptions): Promise<Results> => {
    try {
      return await execute(options);
    } catch (error) {
      // A table changed under a statement named by its text ("cached plan must not change result
      // type"): forget it and prepare the text anew, once. A named statement's caller decides.
      if (options.name === null && (error as { code?: string }).code === "0A000") {
        const stale = byText.get(options.text);
        if (stale) {
          byText.delete(options.text);
          prepared.delete(stale);
          toClose.push(stale);
          return execute(options);
        }
      }
      throw Object.assign(error as object, { query: options.text, params: options.params });
    }
  };

  // The locks are held until the answer is read, not only while the statement is sent: PGlite's
  // execProtocol keeps the running statement's state on the instance across an await, so a caller
  // let in earlier replaces it and the first caller reads the second's rows (pglite-statements
  // test "gives each of many callers at once its own rows"; docs/benchmarks.md, 2026-12-01).
  const locked = (options: RunOptions) =>
    options.inTransaction
      ? client._runExclusiveQuery(() => run(options))
      : client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run(options)));

  /** Whether drizzle's query can take the prepared path: a data statement, with no option but its row mode and its text-type parsers. */
  const preparable = (text: string, options: QueryOptions | undefined) =>
    DATA_STATEMENT.test(text) &&
    Object.entries(options ?? {}).every(([key, value]) => key === "rowMode" || (key === "parsers" && onlyTextTypes(value as object | undefined)));

  /** The options without drizzle's text-type parsers, which are the instance's own now. */
  const withoutTextParsers = (options: QueryOptions | undefined): QueryOptions | undefined =>
    options?.parsers && onlyTextTypes(options.parsers) ? { ...options, parsers: undefined } : options;

  const query = client.query.bind(client);
  client.query = (async (text: string, params: unknown[] = [], options?: QueryOptions) =>
    preparable(text, options)
      ? locked({ name: null, text, params, rowMode: options?.rowMode, inTransaction: false })
      : query(text, params, withoutTextParsers(options))) as PGlite["query"];
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = (async (text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (tx.closed) throw new Error("Transaction is closed");
        return preparable(text, options)
          ? locked({ name: null, text, params, rowMode: options?.rowMode, inTransaction: true })
          : txQuery(text, params, withoutTextParsers(options));
      }) as Transaction["query"];
      return work(tx);
    })) as PGlite["transaction"];

  return { run: locked };
}
