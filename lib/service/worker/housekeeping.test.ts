import { tmpdir } from "node:os";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "@/lib/db/client";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { jobs, rateLimitCounters } from "@/lib/db/schema";
import { TestCardProcessor } from "@/lib/service/payments/test-card-processor";
import { housekeeping } from "./housekeeping";

let database: Database;
beforeAll(async () => {
  database = await openTemplatePglite();
});
afterAll(() => database.close());

describe("housekeeping", () => {
  it("drops old finished jobs and expired counters, keeps the rest, and vacuums on PGlite", async () => {
    const { db } = database;
    const old = new Date(Date.now() - 3 * 86_400_000);
    await db.insert(jobs).values([
      { id: "job_old_done", queue: "qa", payload: {}, status: "succeeded", updatedAt: old },
      { id: "job_old_failed", queue: "qa", payload: {}, status: "failed", updatedAt: old },
      { id: "job_new_done", queue: "qa", payload: {}, status: "succeeded" },
    ]);
    const now = Math.floor(Date.now() / 1000);
    await db.insert(rateLimitCounters).values([
      { key: "k", windowSeconds: 60, windowStart: now - 5 * 3600, count: 3 },
      { key: "k", windowSeconds: 60, windowStart: now - (now % 60), count: 1 },
    ]);
    const config = { dataDir: tmpdir(), uploads: { maxFileBytes: 1, maxPhotos: 1, maxPixels: 1 } };
    await housekeeping({ db, dbKind: "pglite", payments: new TestCardProcessor(), config });
    const left = await queryRows<{ id: string }>(db, sql`select id from jobs order by id`);
    expect(left.map((r) => r.id)).toEqual(["job_new_done", "job_old_failed"]);
    const counters = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from rate_limit_counters`);
    expect(counters[0]?.n).toBe(1);
  });
});
