// PGlite's statements as drizzle runs them (pglite-statements.ts): data statements prepared once
// by their text and kept among the most recently used, other statements run as PGlite runs them,
// a table changed under a kept statement answered anew, each of many callers at once given its own
// rows, errors that leave the connection usable.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { queryRows, type Database } from "./client";

let database: Database;
beforeAll(async () => {
  database = await openTemplatePglite();
});
afterAll(async () => {
  await database?.close();
});

/** The statements named by their text that this connection holds, by text. */
async function kept(): Promise<string[]> {
  const rows = await queryRows<{ statement: string }>(database.db, sql`select statement from pg_prepared_statements where name like '~%'`);
  return rows.map((r) => r.statement);
}

describe("PGlite's statements as drizzle runs them", () => {
  it("prepares a data statement once by its text and binds each call's parameters", async () => {
    const { db } = database;
    const probe = (n: number) => sql`select ${n}::int * 2 as twice, 'probe-prepared' as tag`;
    for (const n of [1, 2, 3]) expect(await queryRows(db, probe(n))).toEqual([{ twice: n * 2, tag: "probe-prepared" }]);
    expect((await kept()).filter((text) => text.includes("probe-prepared"))).toHaveLength(1);
    // Inside a transaction too, on the same statement.
    expect(await db.transaction((tx) => queryRows(tx, probe(5)))).toEqual([{ twice: 10, tag: "probe-prepared" }]);
    expect((await kept()).filter((text) => text.includes("probe-prepared"))).toHaveLength(1);
  });

  it("runs other statements as PGlite does, unprepared", async () => {
    const { db } = database;
    await db.execute(sql`create table probe_ddl (id int primary key, note text)`);
    await db.execute(sql`set local statement_timeout = 0`);
    const texts = await kept();
    expect(texts.filter((text) => /^\s*(create|set)\b/i.test(text))).toEqual([]);
  });

  it("answers anew when a table changed under a kept statement", async () => {
    const { db } = database;
    await db.execute(sql`create table probe_shape (a int)`);
    await db.execute(sql`insert into probe_shape (a) values (${1})`);
    const all = sql`select * from probe_shape`;
    expect(await queryRows(db, all)).toEqual([{ a: 1 }]);
    await db.execute(sql`alter table probe_shape add column b text default 'new'`);
    // PostgreSQL refuses the kept plan ("cached plan must not change result type"); it is prepared again.
    expect(await queryRows(db, all)).toEqual([{ a: 1, b: "new" }]);
    expect(await queryRows(db, all)).toEqual([{ a: 1, b: "new" }]);
  });

  it("keeps the 500 most recently used and closes the rest", async () => {
    const { db } = database;
    const first = sql`select ${1}::int as n, 'probe-first' as tag`;
    await queryRows(db, first);
    for (let i = 0; i < 520; i++) await queryRows(db, sql`select ${i}::int as n, ${sql.raw(`'probe-many-${i}'`)} as tag`);
    const texts = await kept();
    expect(texts.length).toBeLessThanOrEqual(500);
    expect(texts.some((text) => text.includes("probe-many-519"))).toBe(true);
    expect(texts.some((text) => text.includes("probe-first"))).toBe(false);
    // A closed statement is prepared again when it comes back.
    expect(await queryRows(db, first)).toEqual([{ n: 1, tag: "probe-first" }]);
    expect((await kept()).some((text) => text.includes("probe-first"))).toBe(true);
  });

  it("gives each of many callers at once its own rows, in and out of a transaction", async () => {
    // PGlite keeps a statement's state on the instance until its answer is read (execProtocol
    // awaits inside), so the locks must be held until then: released when the statement was sent,
    // one caller got another's rows.
    const { db } = database;
    const own = (n: number) => sql`select ${n}::int as n, ${`caller-${n}`}::text as caller`;
    const outside = Array.from({ length: 60 }, (_, n) => queryRows(db, own(n)));
    const inside = db.transaction(async (tx) => Promise.all(Array.from({ length: 20 }, (_, i) => queryRows(tx, own(100 + i)))));
    // Its own error (22012, division by zero), expected from the start: never unhandled while the others are awaited.
    const failing = expect(queryRows(db, sql`select 1 / ${0}::int as q`)).rejects.toMatchObject({ cause: { code: "22012" } });
    const answers = await Promise.all(outside);
    answers.forEach((rows, n) => expect(rows).toEqual([{ n, caller: `caller-${n}` }]));
    (await inside).forEach((rows, i) => expect(rows).toEqual([{ n: 100 + i, caller: `caller-${100 + i}` }]));
    await failing;
  });

  it("keeps the connection usable after a statement that fails as it runs, in and out of a transaction", async () => {
    const { db } = database;
    const divide = (by: number) => sql`select 10 / ${by}::int as q`;
    await expect(queryRows(db, divide(0))).rejects.toThrow();
    expect(await queryRows(db, divide(5))).toEqual([{ q: 2 }]);
    await expect(db.transaction((tx) => queryRows(tx, divide(0)))).rejects.toThrow();
    expect(await db.transaction((tx) => queryRows(tx, divide(2)))).toEqual([{ q: 5 }]);
  });
});
