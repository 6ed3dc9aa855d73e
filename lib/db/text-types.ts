// The types drizzle reads as the database's text, made PGlite's own parsers once, so that drizzle's
// queries stop handing them over one by one. Drizzle passes `parsers` for these types with every
// query; PGlite then spreads its own 300-odd parsers and those into a new object for each result
// (`{ ...this.parsers, ...options.parsers }`): 130 µs a query measured, against 80–180 µs for a
// small query itself, on every read and write of the embedded database. With the same parsers
// set on the instance, the option is dropped and the rows are the same.
import type { PGlite, QueryOptions, Transaction } from "@electric-sql/pglite";

// The type OIDs drizzle returns as the database's text (its node-postgres and PGlite sessions do
// the same): timestamp, timestamptz, interval, date, and numeric[], timestamp[], timestamptz[],
// interval[], date[].
export const TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const TEXT_TYPE_KEYS = new Set(TEXT_TYPES.map(String));
const asText = (value: string) => value;

/** The options without `parsers` when those only read drizzle's text types as text (now the instance's own). */
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || !Object.keys(options.parsers).every((key) => TEXT_TYPE_KEYS.has(key))) return options;
  return { ...options, parsers: undefined };
}

/** Reads drizzle's text types as text on `client` itself and drops drizzle's per-query parsers, in and out of transactions. Call once the client is ready (its array parsers are set). */
export function adoptTextTypes(client: PGlite): void {
  for (const id of TEXT_TYPES) client.parsers[id] = asText;
  const query = client.query.bind(client);
  client.query = ((text: string, params?: unknown[], options?: QueryOptions) => query(text, params, withoutTextParsers(options))) as PGlite["query"];
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = ((text: string, params?: unknown[], options?: QueryOptions) => txQuery(text, params, withoutTextParsers(options))) as Transaction["query"];
      return work(tx);
    })) as PGlite["transaction"];
}
