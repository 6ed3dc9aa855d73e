// Rows a statement returns as JSON — one table's rows aggregated by json_agg, so that several
// tables' reads travel in one statement — turned into the rows drizzle's select() gives for that
// table: the same keys, and each column's value through that column's own mapping from the
// database's (a timestamp's text to a Date, a number as it is; jsonb as it came).
import { getTableColumns, getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

export function rowsFromJson<T extends PgTable>(table: T, rows: readonly Record<string, unknown>[]): T["$inferSelect"][] {
  const columns = Object.entries(getTableColumns(table));
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      // Every column is expected: a statement that aggregates whole rows sends them all.
      if (!(column.name in row)) throw new Error(`a JSON row of ${getTableName(table)} without "${column.name}"`);
      const value = row[column.name];
      out[key] = value === null ? null : column.dataType === "json" ? value : column.mapFromDriverValue(value);
    }
    return out as T["$inferSelect"];
  });
}
