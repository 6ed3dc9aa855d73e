// Migration 0017 adds missions.order_reference and fills it for missions dispatched before it: run
// over a database at 0016 holding such missions, each takes its order's reference (or stays null).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "./client";

const db = new PGlite();
afterAll(() => db.close());

async function apply(file: string) {
  for (const statement of readFileSync(join(MIGRATIONS_DIR, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) await db.exec(statement);
  }
}

it("fills order_reference of the missions dispatched before it from their order, and leaves the others null", async () => {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files.filter((f) => f < "0017")) await apply(file);
  await db.exec(`
    insert into organisations (id, name) values ('org_1', 'o');
    insert into orders (id, org_id, category, quote, expires_at, client_reference) values
      ('ord_a', 'org_1', 'cultural_exterior', '{}', now(), 'florence-daily'),
      ('ord_b', 'org_1', 'cultural_exterior', '{}', now(), null);
    insert into missions (id, org_id, title, bounds, min_lng, min_lat, max_lng, max_lat, area_m2, required_images, order_id) values
      ('mis_a', 'org_1', 'Uffizi', '{}', 0, 0, 1, 1, 1, 1, 'ord_a'),
      ('mis_b', 'org_1', 'Uffizi', '{}', 0, 0, 1, 1, 1, 1, 'ord_b'),
      ('mis_c', 'org_1', 'Duomo', '{}', 0, 0, 1, 1, 1, 1, null);
  `);
  const [migration] = files.filter((f) => f.startsWith("0017"));
  expect(migration).toBe("0017_mission_order_reference.sql");
  await apply(migration ?? "");
  const rows = await db.query<{ id: string; order_reference: string | null }>("select id, order_reference from missions order by id");
  expect(rows.rows).toEqual([
    { id: "mis_a", order_reference: "florence-daily" },
    { id: "mis_b", order_reference: null },
    { id: "mis_c", order_reference: null },
  ]);
});
