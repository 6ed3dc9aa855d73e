// A drizzle query built once per database and bound to new values on each call, for hot reads.
// Building a select is not free: drizzle walks every selected column through its `is()` checks
// and writes the SQL text again on every call — 65–120 µs for a plain `select().from(t).where(…)`
// of a table of 27 columns on this machine, about a third of the CPU of an empty submissions page
// on PGlite (docs/benchmarks.md, api-routes). drizzle's own `.prepare(name)` keeps the built text
// and its parameters' places (`sql.placeholder`); `execute(values)` only fills them in and maps the
// rows as the builder would. PostgreSQL also parses and plans the named statement once per
// connection; PGlite prepares by text either way (pglite-statements.ts).
//
// One prepared query per database object: the database itself, or a transaction's object while it
// lives (built once per transaction, as an unprepared query would be each time).
import type { Db } from "./client";

interface Executable<Values, Result> {
  execute(values: Values): Promise<Result>;
}

/**
 * `build(db)` once per database (with `sql.placeholder("…")` where values go), prepared as `name`;
 * the function it returns runs it with `values`. One name, one text: the name is the statement's
 * on PostgreSQL connections.
 */
export function reusableQuery<Values extends Record<string, unknown>, Result>(
  name: string,
  build: (db: Db) => { prepare(name: string): Executable<Values, Result> },
): (db: Db, values: Values) => Promise<Result> {
  const prepared = new WeakMap<Db, Executable<Values, Result>>();
  return (db, values) => {
    let query = prepared.get(db);
    if (!query) {
      query = build(db).prepare(name);
      prepared.set(db, query);
    }
    return query.execute(values);
  };
}
