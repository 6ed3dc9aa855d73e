// Inserts on a hot path, built by drizzle once and run as named prepared statements. drizzle builds
// an insert's SQL anew on every call: for a row of twenty columns that is about 0.1 ms of CPU (its
// query builder tests every chunk's class by walking prototype chains), more than PostgreSQL takes
// to run it. Here drizzle builds the statement once per shape (which columns, how many rows) with
// placeholders, and each call only encodes its values the way drizzle would (each column's
// mapToDriverValue; null stays NULL) and runs the text under a name of its own (queryPrepared's
// runners, client.ts): on the transaction's connection inside one, parsed and planned once per
// connection. Anything the placeholders cannot carry — a column filled by a $defaultFn, a value
// that maps to SQL — and any call without a runner (a nested transaction) runs as a plain drizzle
// insert instead, so the result is always drizzle's.
import { createHash } from "node:crypto";
import { Param, Placeholder, SQL, is, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import { assertStatementName, preparedRunnerFor, type Db } from "./client";

const dialect = new PgDialect();

/** By default at most this many shapes per insert get a statement; more run as plain drizzle inserts. */
const MAX_SHAPES = 8;
/** Hex digits of a shape's columns in its statement's name. */
const HASH_LENGTH = 10;
/** More rows than this in one call: a plain drizzle insert (and the name's length stays bounded). */
const MAX_ROWS = 9_999;

/** A shape's statement: its text, and how each parameter is made from the rows. */
interface Compiled {
  name: string;
  text: string;
  encode: ((rows: readonly Record<string, unknown>[]) => unknown)[];
}

/**
 * Inserts `table`'s rows (no returning), one statement per shape, at most `maxShapes` (a shape is
 * a set of columns and a number of rows: an insert of a varying number of rows wants room for the
 * usual counts). A shape's statement is named `${name}_<rows>_<hash of its columns>`: the same
 * shape gets the same name and text wherever it is built — Next's server bundle may hold a second
 * copy of a module — so two copies never prepare two texts under one name on a shared connection.
 */
export function preparedInsert<T extends PgTable>(
  table: T,
  name: string,
  { maxShapes = MAX_SHAPES }: { maxShapes?: number } = {},
): (db: Db, rows: T["$inferInsert"][]) => Promise<void> {
  assertStatementName(`${name}_${MAX_ROWS}_${"0".repeat(HASH_LENGTH)}`);
  const shapes = new Map<string, Compiled | null>();

  const compile = (db: Db, columns: string[], rowCount: number): Compiled | null => {
    if (shapes.size >= maxShapes || rowCount > MAX_ROWS) return null;
    const placeholders = Array.from({ length: rowCount }, (_, row) =>
      Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${row}:${column}`)])),
    );
    const query = dialect.sqlToQuery(
      db
        .insert(table)
        .values(placeholders as T["$inferInsert"][])
        .getSQL(),
    );
    const encode: Compiled["encode"] = [];
    for (const param of query.params) {
      if (!is(param, Param) || !is(param.value, Placeholder)) return null; // a value drizzle made itself ($defaultFn)
      const [row, column] = parsePlaceholder(param.value.name);
      const encoder = param.encoder;
      encode.push((rows) => {
        const value = rows[row]?.[column];
        if (value === null || value === undefined) return null;
        const mapped: unknown = encoder.mapToDriverValue(value);
        if (is(mapped, SQL)) throw new ValueNeedsSql();
        return mapped;
      });
    }
    const columnsHash = createHash("sha256").update(columns.join(",")).digest("hex").slice(0, HASH_LENGTH);
    return { name: `${name}_${rowCount}_${columnsHash}`, text: query.sql, encode };
  };

  return async (db, rows) => {
    if (rows.length === 0) return;
    const runner = preparedRunnerFor(db);
    const first = rows[0] as Record<string, unknown>;
    const columns = Object.keys(first).filter((column) => first[column] !== undefined);
    const sameShape = rows.every((row) => sameColumns(row as Record<string, unknown>, columns));
    if (runner && sameShape) {
      const key = `${rows.length}|${columns.join(",")}`;
      let compiled = shapes.get(key);
      if (compiled === undefined) {
        compiled = compile(db, columns, rows.length);
        shapes.set(key, compiled);
      }
      if (compiled) {
        let params: unknown[] | undefined;
        try {
          params = compiled.encode.map((encode) => encode(rows as Record<string, unknown>[]));
        } catch (error) {
          if (!(error instanceof ValueNeedsSql)) throw error;
        }
        if (params) {
          await runner(compiled.name, compiled.text, params);
          return;
        }
      }
    }
    await db.insert(table).values(rows);
  };
}

/** A value whose column maps it to SQL rather than a parameter: that call runs as a plain insert. */
class ValueNeedsSql extends Error {}

function parsePlaceholder(name: string): [number, string] {
  const colon = name.indexOf(":");
  return [Number(name.slice(0, colon)), name.slice(colon + 1)];
}

/** Whether `row` sets exactly `columns` (undefined counts as not set, as drizzle takes it). */
function sameColumns(row: Record<string, unknown>, columns: string[]): boolean {
  let set = 0;
  for (const column in row) if (row[column] !== undefined) set++;
  return set === columns.length && columns.every((column) => row[column] !== undefined);
}
