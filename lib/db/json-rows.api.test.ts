// rowsFromJson (json-rows.ts) on the database of this run — PGlite, or PostgreSQL when
// TEST_DATABASE_URL is set: a table's rows aggregated as JSON come back as the very rows drizzle's
// select() gives — timestamps (with the microseconds now() writes) as Dates, numbers, jsonb, nulls —
// so reads that travel together in one statement (loadOrderExtras) answer what separate selects did.
import { sql } from "drizzle-orm";
import { doublePrecision, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRunDatabase, type RunDatabase } from "@/lib/service/http/tests/run-database";
import { queryRows, type Database } from "./client";
import { rowsFromJson } from "./json-rows";

const probe = pgTable("json_rows_probe", {
  id: text("id").primaryKey(),
  position: integer("position").notNull(),
  lat: doublePrecision("lat"),
  doc: jsonb("doc").notNull(),
  note: text("note"),
  seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull(),
  doneAt: timestamp("done_at", { withTimezone: true, mode: "date" }),
});

let run: RunDatabase | undefined;
let database: Database;

beforeAll(async () => {
  run = await openRunDatabase();
  database = run.database;
  await database.db.execute(sql`create table json_rows_probe (id text primary key, position int not null, lat float8, doc jsonb not null,
    note text, seen_at timestamptz not null default now(), done_at timestamptz)`);
  await database.db.insert(probe).values([
    {
      id: "a",
      position: 1,
      lat: 43.76961234567891,
      doc: { requirements: { angles: ["front"] }, n: 1.5 },
      note: 'ünïcode "quoted"',
      seenAt: new Date("2026-11-29T10:00:00.123Z"),
    },
    { id: "b", position: 2, lat: null, doc: [], note: null, seenAt: new Date("2027-03-01T23:30:00Z"), doneAt: new Date("2027-03-02T00:00:00.5Z") },
  ]);
  // A timestamp with the microseconds the database's own now() keeps.
  await database.db.execute(sql`insert into json_rows_probe (id, position, doc) values ('c', 3, '"a string"'::jsonb)`);
});
afterAll(async () => {
  await run?.close();
});

describe(`rowsFromJson on ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("gives back the rows select() gives, value for value", async () => {
    const { db } = database;
    const [aggregated] = await queryRows<{ rows: Record<string, unknown>[] }>(
      db,
      sql`select coalesce(json_agg(${probe} order by ${probe.id}), '[]'::json) as rows from ${probe}`,
    );
    const selected = await db.select().from(probe).orderBy(probe.id);
    const fromJson = rowsFromJson(probe, aggregated?.rows ?? []);
    expect(fromJson).toEqual(selected);
    expect(fromJson[0]?.seenAt).toBeInstanceOf(Date);
    expect(fromJson[0]?.lat).toBe(43.76961234567891);
    expect(fromJson[2]?.doc).toBe("a string");
    expect(fromJson[1]?.doneAt?.toISOString()).toBe("2027-03-02T00:00:00.500Z");
  });

  it("refuses a row that lacks a column, rather than answering undefined for it", () => {
    expect(() => rowsFromJson(probe, [{ id: "x", position: 1, lat: null, doc: {}, note: null, seen_at: "2026-11-29T10:00:00Z" }])).toThrow(
      /json_rows_probe without "done_at"/,
    );
  });
});
