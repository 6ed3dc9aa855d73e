// Prepared inserts (lib/db/prepared-insert.ts) on the database of this run — PGlite, or PostgreSQL
// when TEST_DATABASE_URL is set: the rows drizzle's own insert writes, NULL kept NULL, a named
// statement per shape, a transaction's connection inside one, and drizzle's insert whenever a
// statement built once could not be right (a $defaultFn column, too many shapes).
import { sql } from "drizzle-orm";
import { boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRunDatabase, type RunDatabase } from "@/lib/service/http/tests/run-database";
import { queryRows, type Database } from "./client";
import { preparedInsert } from "./prepared-insert";

const server = process.env.TEST_DATABASE_URL;

const columns = () => ({
  id: text("id").primaryKey(),
  n: integer("n").notNull(),
  x: doublePrecision("x"),
  doc: jsonb("doc"),
  at: timestamp("at", { withTimezone: true, mode: "date" }),
  note: text("note").notNull().default("none"),
  flag: boolean("flag").notNull().default(false),
});
const probe = pgTable("insert_probe", columns());
const twin = pgTable("insert_twin", columns());
const stamped = pgTable("insert_stamped", {
  id: text("id").primaryKey(),
  stamp: text("stamp")
    .notNull()
    .$defaultFn(() => `made ${Math.random()}`),
});

let run: RunDatabase | undefined;
let database: Database;

beforeAll(async () => {
  run = await openRunDatabase();
  database = run.database;
  for (const table of ["insert_probe", "insert_twin"]) {
    await database.db.execute(
      sql.raw(`create table ${table} (id text primary key, n int not null, x float8, doc jsonb, at timestamptz,
               note text not null default 'none', flag boolean not null default false)`),
    );
  }
  await database.db.execute(sql`create table insert_stamped (id text primary key, stamp text not null)`);
});
afterAll(async () => {
  await run?.close();
});

const statements = (prefix: string) =>
  queryRows<{ name: string }>(database.db, sql`select name from pg_prepared_statements where name like ${`${prefix}%`} order by name`).then((rows) =>
    rows.map((r) => r.name),
  );
const rowsOf = (table: "insert_probe" | "insert_twin") =>
  queryRows<Record<string, unknown>>(database.db, sql.raw(`select *, doc is null as doc_is_null from ${table} order by id`));

describe(`preparedInsert on ${server ? "PostgreSQL" : "PGlite"}`, () => {
  it("writes the rows drizzle's insert writes, NULL as NULL (not JSON null), under one named statement per shape", async () => {
    const { db } = database;
    const insert = preparedInsert(probe, "probe_insert");
    const batches: (typeof probe.$inferInsert)[][] = [
      [{ id: "a", n: 1, x: 1.5, doc: { tags: ["x", "y"], deep: { n: 1 } }, at: new Date("2026-11-29T10:00:00Z"), note: "first", flag: true }],
      // Another call of the same shape: its own values.
      [{ id: "b", n: 2, x: null, doc: null, at: null, note: "second", flag: false }],
      // Two rows, and columns left to their defaults: other shapes.
      [
        { id: "c", n: 3, doc: [1, 2, 3] },
        { id: "d", n: 4, doc: "a string" },
      ],
    ];
    for (const rows of batches) {
      await insert(db, rows);
      await db.insert(twin).values(rows);
    }
    const written = await rowsOf("insert_probe");
    expect(written).toEqual(await rowsOf("insert_twin"));
    expect(written.map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(written.find((r) => r.id === "b")?.doc_is_null).toBe(true);
    expect(written.find((r) => r.id === "c")?.note).toBe("none");
    // One per shape: one row of every column, two rows of some; named by rows and columns.
    const names = await statements("probe_insert");
    expect(names).toHaveLength(2);
    expect(names.map((n) => n.split("_")[2])).toEqual(expect.arrayContaining(["1", "2"]));
    for (const n of names) expect(n).toMatch(/^probe_insert_[12]_[0-9a-f]{10}$/);
  });

  it("two copies of one insert (a module bundled twice) name each shape alike, so one connection takes both", async () => {
    const { db } = database;
    const first = preparedInsert(probe, "probe_copies");
    const second = preparedInsert(probe, "probe_copies");
    await first(db, [{ id: "copy-1", n: 1, note: "first" }]);
    // The second copy's first shape is another one: numbered in order, both would be the copy's "first statement".
    await second(db, [{ id: "copy-2", n: 2 }]);
    await second(db, [{ id: "copy-3", n: 3, note: "third" }]);
    expect(await queryRows(db, sql`select id, note from insert_probe where id like 'copy-%' order by id`)).toEqual([
      { id: "copy-1", note: "first" },
      { id: "copy-2", note: "none" },
      { id: "copy-3", note: "third" },
    ]);
    expect(await statements("probe_copies")).toHaveLength(2);
  });

  it("inside a transaction runs on its connection: a rollback takes the rows back", async () => {
    const { db } = database;
    const insert = preparedInsert(probe, "probe_tx_insert");
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, [{ id: "tx-1", n: 10 }]);
        expect(await queryRows(tx, sql`select id from insert_probe where id = 'tx-1'`)).toEqual([{ id: "tx-1" }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await queryRows(db, sql`select id from insert_probe where id = 'tx-1'`)).toEqual([]);
    await db.transaction(async (tx) => insert(tx, [{ id: "tx-2", n: 11 }]));
    expect(await queryRows(db, sql`select id from insert_probe where id = 'tx-2'`)).toEqual([{ id: "tx-2" }]);
    expect(await statements("probe_tx_insert")).toHaveLength(1);
  });

  it("a failing insert rejects and leaves the connection usable", async () => {
    const { db } = database;
    const insert = preparedInsert(probe, "probe_dup_insert");
    await insert(db, [{ id: "dup", n: 1 }]);
    await expect(insert(db, [{ id: "dup", n: 2 }])).rejects.toThrow();
    await insert(db, [{ id: "dup-2", n: 3 }]);
    expect(await queryRows(db, sql`select n from insert_probe where id like 'dup%' order by id`)).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("a column filled by a $defaultFn gets a fresh value every call: drizzle's insert, never a statement with the first value in it", async () => {
    const { db } = database;
    const insert = preparedInsert(stamped, "probe_stamped");
    await insert(db, [{ id: "s1" }]);
    await insert(db, [{ id: "s2" }]);
    const stamps = await queryRows<{ stamp: string }>(db, sql`select stamp from insert_stamped order by id`);
    expect(stamps).toHaveLength(2);
    expect(stamps[0]?.stamp).toMatch(/^made /);
    expect(stamps[0]?.stamp).not.toBe(stamps[1]?.stamp);
    expect(await statements("probe_stamped")).toEqual([]);
  });

  it("past maxShapes, and for rows of different columns in one call, inserts all the same", async () => {
    const { db } = database;
    const insert = preparedInsert(probe, "probe_many", { maxShapes: 2 });
    for (const count of [1, 2, 3, 4]) {
      await insert(
        db,
        Array.from({ length: count }, (_, i) => ({ id: `many-${count}-${i}`, n: count })),
      );
    }
    await insert(db, [
      { id: "mixed-1", n: 1, note: "set" },
      { id: "mixed-2", n: 2 },
    ]);
    const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from insert_probe where id like 'many-%'`);
    expect(n).toBe(1 + 2 + 3 + 4);
    expect(await queryRows(db, sql`select id, note from insert_probe where id like 'mixed-%' order by id`)).toEqual([
      { id: "mixed-1", note: "set" },
      { id: "mixed-2", note: "none" },
    ]);
    expect((await statements("probe_many")).map((n) => n.split("_")[2])).toEqual(["1", "2"]);
  });
});
