// Named prepared statements (lib/db/prepared-query.ts, queryPrepared in client.ts) on the database
// of this run — PGlite, or PostgreSQL when TEST_DATABASE_URL is set: the same rows as an unprepared
// query, parameters bound anew on every call, errors that leave the connection usable, prepared
// inside a transaction on its connection, and on PGlite never inside another caller's transaction.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRunDatabase, type RunDatabase } from "@/lib/service/http/tests/run-database";
import { queryPrepared, queryRows, type Database } from "./client";

const server = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let run: RunDatabase | undefined;
let database: Database;

beforeAll(async () => {
  run = await openRunDatabase();
  database = run.database;
  await database.db.execute(sql`create table prepared_probe (id int primary key, note text)`);
});
afterAll(async () => {
  await run?.close();
});

/** Every kind of value drizzle hands back differently: timestamps, dates, intervals and numeric arrays as text. */
const shapes = (n: number, at: string) =>
  sql`select ${n}::int as n, ${n / 4}::float8 as f, ${`note ${n}`}::text as t, ${at}::timestamptz as at, ${at}::date as day,
        make_interval(mins => ${n}::int) as span, array[${n}::numeric, 1.5] as nums, jsonb_build_object('n', ${n}::int) as doc,
        null::text as nothing, ${n} > 2 as big`;

describe(`queryPrepared on ${server ? "PostgreSQL" : "PGlite"}`, () => {
  it("answers the same rows as the unprepared query, with each call's own parameters", async () => {
    const { db } = database;
    for (const [n, at] of [
      [1, "2026-11-29T10:00:00Z"],
      [7, "2027-03-01T23:30:00Z"],
      [3, "2026-01-15T00:00:00Z"],
    ] as const) {
      const prepared = await queryPrepared<Record<string, unknown>>(db, "probe_shapes", shapes(n, at));
      expect(prepared).toEqual(await queryRows(db, shapes(n, at)));
      expect(prepared[0]?.n).toBe(n);
    }
    // Prepared on the connection under its name, not run as an unnamed statement.
    const listed = await queryRows<{ name: string }>(db, sql`select name from pg_prepared_statements where name = 'probe_shapes'`);
    expect(listed).toEqual([{ name: "probe_shapes" }]);
  });

  it("keeps the connection usable after a statement that does not parse and one that fails as it runs", async () => {
    const { db } = database;
    await expect(queryPrepared(db, "probe_broken", sql`select frm nowhere ${1}`)).rejects.toThrow();
    await expect(queryPrepared(db, "probe_divide", sql`select 1 / ${0}::int as q`)).rejects.toThrow(/division by zero/);
    expect(await queryPrepared<{ q: number }>(db, "probe_divide", sql`select 1 / ${1}::int as q`)).toEqual([{ q: 1 }]);
    expect(await queryRows<{ one: number }>(db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it("refuses a name that is not a plain identifier, and a second text under a name already used", async () => {
    const { db } = database;
    await expect(queryPrepared(db, "probe; drop table x", sql`select 1`)).rejects.toThrow(/not a statement name/);
    await queryPrepared(db, "probe_once", sql`select ${1}::int as a`);
    await expect(queryPrepared(db, "probe_once", sql`select ${1}::int as b`)).rejects.toThrow();
  });

  it("inside a transaction runs prepared on its connection, sees its writes, and stays prepared after a rollback", async () => {
    const notes = (id: number) => sql`select note from prepared_probe where id = ${id}`;
    const listed = async () => (await queryRows(database.db, sql`select name from pg_prepared_statements where name = 'probe_tx_notes'`)).length;
    expect(await listed()).toBe(0);
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into prepared_probe (id, note) values (1, 'in tx')`);
        expect(await queryPrepared(tx, "probe_tx_notes", notes(1))).toEqual([{ note: "in tx" }]);
        // Prepared on the transaction's connection, not run as an unnamed statement.
        expect(await queryRows(tx, sql`select name from pg_prepared_statements where name = 'probe_tx_notes'`)).toHaveLength(1);
        // A savepoint's transaction runs it too (unprepared there).
        await tx.transaction(async (inner) => {
          expect(await queryPrepared(inner, "probe_tx_notes", notes(1))).toEqual([{ note: "in tx" }]);
        });
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && /rollback/i.test(error.message))) throw error;
      });
    // The rollback undid the write, not the statement: it runs again, prepared, and finds nothing.
    expect(await queryPrepared(database.db, "probe_tx_notes", notes(1))).toEqual([]);
    expect(await listed()).toBe(1);
  });

  it("a failing statement inside a transaction fails that transaction only", async () => {
    const { db } = database;
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into prepared_probe (id, note) values (3, 'rolled back')`);
        await queryPrepared(tx, "probe_tx_divide", sql`select 1 / ${0}::int as q`);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await queryPrepared(db, "probe_tx_notes", sql`select note from prepared_probe where id = ${3}`)).toEqual([]);
    expect(await queryPrepared<{ q: number }>(db, "probe_tx_divide", sql`select 1 / ${2}::int as q`)).toEqual([{ q: 0 }]);
  });

  it.skipIf(Boolean(server))("on PGlite reads drizzle's text types as text from the instance's own parsers, in and out of a transaction", async () => {
    // The types drizzle hands PGlite parsers for on every query are the instance's own (text-types.ts):
    // timestamps, dates and intervals and their arrays come back as the database wrote them, the rest parsed.
    const at = "2026-11-29T10:00:00Z";
    const probe = sql`select ${at}::timestamptz as at, ${at}::timestamp as local, ${at}::date as day, make_interval(mins => 1) as span,
      array[1::numeric, 1.5] as nums, array[${at}::timestamptz] as ats, array[${at}::date] as days, array[make_interval(mins => 1)] as spans,
      array[${at}::timestamp] as locals, array[1, 2]::int[] as ints, 2.5::float8 as f`;
    const expected = {
      at: "2026-11-29 10:00:00+00",
      local: "2026-11-29 10:00:00",
      day: "2026-11-29",
      span: "00:01:00",
      nums: "{1,1.5}",
      ats: '{"2026-11-29 10:00:00+00"}',
      days: "{2026-11-29}",
      spans: "{00:01:00}",
      locals: '{"2026-11-29 10:00:00"}',
      ints: [1, 2],
      f: 2.5,
    };
    expect(await queryRows(database.db, probe)).toEqual([expected]);
    expect(await database.db.transaction((tx) => queryRows(tx, probe))).toEqual([expected]);
    expect(await queryPrepared(database.db, "probe_text_types", probe)).toEqual([expected]);
  });

  it.skipIf(Boolean(server))("on PGlite's one connection waits for another caller's transaction instead of running inside it", async () => {
    const { db } = database;
    let open = false;
    const transaction = db.transaction(async (tx) => {
      open = true;
      await tx.execute(sql`insert into prepared_probe (id, note) values (2, 'committed')`);
      await sleep(150);
      open = false;
    });
    await sleep(20);
    expect(open).toBe(true);
    const rows = await queryPrepared(db, "probe_notes", sql`select note from prepared_probe where id = ${2}`);
    expect(open, "the statement ran while the transaction was open").toBe(false);
    expect(rows).toEqual([{ note: "committed" }]);
    await transaction;
  });
});
