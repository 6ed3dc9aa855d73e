// reusableQuery (reusable-query.ts) on the database of this run — PGlite, or PostgreSQL when
// TEST_DATABASE_URL is set: a query built once answers what the same builder answers each time,
// for new values on every call, inside a transaction too, and is built once per database object.
import { asc, eq, sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRunDatabase, type RunDatabase } from "@/lib/service/http/tests/run-database";
import type { Database, Db } from "./client";
import { reusableQuery } from "./reusable-query";

const probe = pgTable("reusable_query_probe", {
  id: text("id").primaryKey(),
  owner: text("owner").notNull(),
  position: integer("position").notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull(),
});

let run: RunDatabase | undefined;
let database: Database;
let builds = 0;

const byOwner = reusableQuery("reusable_query_probe_page", (db: Db) => {
  builds += 1;
  return db
    .select()
    .from(probe)
    .where(eq(probe.owner, sql.placeholder("owner")))
    .orderBy(asc(probe.position))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
});

const eachTime = (db: Db, owner: string, limit: number, offset: number) =>
  db.select().from(probe).where(eq(probe.owner, owner)).orderBy(asc(probe.position)).limit(limit).offset(offset);

beforeAll(async () => {
  run = await openRunDatabase();
  database = run.database;
  await database.db.execute(
    sql`create table reusable_query_probe (id text primary key, owner text not null, position int not null, seen_at timestamptz not null)`,
  );
  await database.db.insert(probe).values(
    Array.from({ length: 7 }, (_, i) => ({
      id: `r${i}`,
      owner: i % 2 === 0 ? "even" : "odd",
      position: i,
      seenAt: new Date(Date.UTC(2026, 11, 1, 8, i, 0, 123)),
    })),
  );
});
afterAll(async () => {
  await run?.close();
});

describe(`reusableQuery on ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("answers what the builder answers, for new values on each call, built once", async () => {
    const { db } = database;
    const before = builds;
    for (const [owner, limit, offset] of [
      ["even", 2, 0],
      ["even", 2, 2],
      ["odd", 5, 0],
      ["none", 5, 0],
    ] as const) {
      const rows = await byOwner(db, { owner, limit, offset });
      expect(rows).toEqual(await eachTime(db, owner, limit, offset));
    }
    expect((await byOwner(db, { owner: "even", limit: 2, offset: 0 })).map((row) => row.id)).toEqual(["r0", "r2"]);
    expect((await byOwner(db, { owner: "odd", limit: 5, offset: 0 }))[0]?.seenAt).toEqual(new Date(Date.UTC(2026, 11, 1, 8, 1, 0, 123)));
    expect(builds - before).toBe(1);
  });

  it("runs inside a transaction and sees its writes", async () => {
    const rows = await database.db.transaction(async (tx) => {
      await tx.insert(probe).values({ id: "t0", owner: "tx", position: 0, seenAt: new Date() });
      return byOwner(tx, { owner: "tx", limit: 5, offset: 0 });
    });
    expect(rows.map((row) => row.id)).toEqual(["t0"]);
    expect(await byOwner(database.db, { owner: "tx", limit: 5, offset: 0 })).toHaveLength(1);
  });
});
