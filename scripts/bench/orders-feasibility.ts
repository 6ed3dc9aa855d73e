// Benchmark (issue 34): POST /api/orders/v1/orders/feasibility for an order of 100 locations
// against POST /orders/quote for the same body, measured in the same run through the standalone
// API (scripts/api-server.ts). Goal: feasibility answers in at most 2 × the quote's time, i.e. a
// throughput ratio feasibility / quote ≥ 0.5 (the rounds harness reports throughput ratios).
//
// Set-up, so feasibility reads a real history rather than an empty one: through the public
// interfaces an Enterprise organisation, its key and ten zoomers; an order of the same 100
// locations near Florence, confirmed (100 missions and tasks). The API is then stopped, its
// missions are marked delivered 20 days ago after 2–42 h (seeded random) and each zoomer given a
// submission 3 days ago, directly in the database (nothing in the public interface delivers
// without photos), and the API started again on that database. Both requests then ask about
// 100 locations with 100 delivered tasks and 10 contributors around them, in `daylight`.
//
// Sequential requests from this process (one pass = one request), variants alternating each
// round (lib/rounds.ts); on PGlite always, on PostgreSQL too when TEST_DATABASE_URL is set.
// The CPU figures are this client's, not the server's: only the wall-clock ratio counts.
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { assignments, missions, submissions } from "@/lib/db/schema";
import { seededRandom } from "@/lib/demo/seeded-random";
import { manyLocations, orderBody } from "@/lib/service/http/tests/orders-client";
import { BENCH_ADMIN_TOKEN, dedicatedDatabase, openApiDatabase, redactUrl, type ApiDatabaseLocation } from "./lib/databases";
import { describeRounds, fmt, ratioTable, timingTable } from "./lib/file-report";
import { postJson, stringField } from "./lib/http";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { createZoomer, seedOrderPartner } from "./lib/seed";
import { readAdminToken, startApi, type ApiPostgres, type RunningApi } from "./lib/targets";
import { defineBenchmark } from "./lib/benchmark";
import { fileBenchmarksHeader } from "./lib/file-report";

const ORDERS = "/api/orders/v1";
const DB_PREFIX = "bench_feasibility_";
const LOCATIONS = 100;
const ZOOMERS = 10;
/** feasibility throughput ÷ quote throughput: answering in ≤ 2 × the quote's time. */
export const GOAL = { minThroughputRatio: 0.5 } as const;

const BODY = orderBody({
  client_reference: "bench-feasibility",
  requirements: { angles: ["front"], time_of_day: "daylight" },
  locations: manyLocations(LOCATIONS),
});
const BODY_TEXT = JSON.stringify(BODY);

export interface FeasibilityDatabaseResult {
  database: "PGlite" | "PostgreSQL";
  detail: string;
  history: { deliveredTasks: number; zoomers: number };
  /** What one feasibility answer said of the first location (a check that history was read). */
  firstEstimate: unknown;
  rounds: RoundsResult;
}

export interface OrdersFeasibilityResults {
  benchmark: "orders-feasibility";
  request: { locations: number; bodyBytes: number };
  settings: RoundSettings & { databaseUrl?: string };
  databases: FeasibilityDatabaseResult[];
}

async function post(api: RunningApi, path: string, key: string): Promise<unknown> {
  const response = await fetch(`${api.url}${ORDERS}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: BODY_TEXT,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** Through the API: the partner, the zoomers, the confirmed order of the same locations. */
async function seedThroughApi(api: RunningApi): Promise<{ key: string; orgId: string; orderId: string; zoomerIds: string[] }> {
  const admin = readAdminToken(api);
  const { orgId, apiKey } = await seedOrderPartner(api);
  const zoomerIds: string[] = [];
  for (let i = 0; i < ZOOMERS; i++) zoomerIds.push(stringField(await createZoomer(api.url, admin, `Bench zoomer ${i}`), "id"));
  const order = await postJson(`${api.url}${ORDERS}/orders`, { ...BODY, requirements: { angles: ["front"] } }, apiKey, 201);
  const orderId = stringField(order, "id");
  const confirmed = await postJson(`${api.url}${ORDERS}/orders/${orderId}/confirm`, { payment_method: "card" }, apiKey, 200);
  if (stringField(confirmed, "status") !== "in_progress") throw new Error(`order ${orderId} not dispatched: ${JSON.stringify(confirmed).slice(0, 200)}`);
  return { key: apiKey, orgId, orderId, zoomerIds };
}

/** In the database, the API stopped: the order's locations delivered after 2–42 h, 20 days ago; each zoomer active 3 days ago. */
async function seedHistory(where: ApiDatabaseLocation, seed: { orgId: string; orderId: string; zoomerIds: string[] }): Promise<number> {
  const database = await openApiDatabase(where);
  try {
    const { db } = database;
    const random = seededRandom(34);
    const opened = new Date(Date.now() - 20 * 86_400_000);
    const rows = await db.select({ id: missions.id }).from(missions).where(eq(missions.orderId, seed.orderId));
    for (const mission of rows) {
      const delivered = new Date(opened.getTime() + (2 + 40 * random()) * 3_600_000);
      await db
        .update(assignments)
        .set({ createdAt: opened, status: "verified", completedAt: delivered, deliveredAt: delivered })
        .where(eq(assignments.missionId, mission.id));
      await db.update(missions).set({ createdAt: opened, status: "completed", completedAt: delivered }).where(eq(missions.id, mission.id));
    }
    const at = new Date(Date.now() - 3 * 86_400_000);
    await db.insert(submissions).values(
      seed.zoomerIds.map((zoomerId, i) => ({
        id: `sub_bench_feasibility_${i}`,
        missionId: rows[i % rows.length]?.id ?? "",
        orgId: seed.orgId,
        zoomerId,
        imageCount: 1,
        lat: 43.75,
        lng: 11.25,
        createdAt: at,
      })),
    );
    const [count] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from missions where order_id = ${seed.orderId} and status = 'completed'`,
    );
    return Number(count?.n ?? 0);
  } finally {
    await database.close();
  }
}

async function measureDatabase(
  supervisor: Supervisor,
  settings: RoundSettings,
  database: FeasibilityDatabaseResult["database"],
  detail: string,
  postgres: ApiPostgres | undefined,
): Promise<FeasibilityDatabaseResult> {
  const log = (message: string) => console.error(`[bench] orders-feasibility ${database}: ${message}`);
  const first = await startApi(supervisor, "standalone", postgres ? { postgres } : {});
  let seed: Awaited<ReturnType<typeof seedThroughApi>>;
  try {
    seed = await seedThroughApi(first);
  } finally {
    await first.process.stop();
  }
  const deliveredTasks = await seedHistory(postgres ? { kind: "postgres", url: postgres.url } : { kind: "pglite", dataDir: first.dataDir }, seed);
  log(`history: ${deliveredTasks} delivered tasks, ${ZOOMERS} zoomers`);
  const api = await startApi(supervisor, "standalone", postgres ? { postgres } : { dataDir: first.dataDir });
  try {
    const answer = await post(api, "/orders/feasibility", seed.key);
    const locations = (answer as { locations?: { estimate?: unknown }[] }).locations ?? [];
    if (locations.length !== LOCATIONS) throw new Error(`feasibility answered ${locations.length} locations, not ${LOCATIONS}`);
    const variants: Variant[] = [
      { name: "quote", label: `POST /orders/quote (${LOCATIONS} locations)`, pass: async () => void (await post(api, "/orders/quote", seed.key)) },
      {
        name: "feasibility",
        label: `POST /orders/feasibility (${LOCATIONS} locations)`,
        pass: async () => void (await post(api, "/orders/feasibility", seed.key)),
      },
    ];
    const rounds = await measureRounds(variants, { bytes: BODY_TEXT.length, files: 1 }, settings, log, { min: GOAL.minThroughputRatio });
    return {
      database,
      detail,
      history: { deliveredTasks, zoomers: ZOOMERS },
      firstEstimate: locations[0]?.estimate ?? null,
      rounds,
    };
  } finally {
    await api.process.stop();
  }
}

export async function runOrdersFeasibility(options: {
  supervisor: Supervisor;
  rounds: RoundSettings;
  databaseUrl?: string;
}): Promise<OrdersFeasibilityResults> {
  const databases: FeasibilityDatabaseResult[] = [];
  databases.push(await measureDatabase(options.supervisor, options.rounds, "PGlite", "embedded, in the API's process", undefined));
  if (options.databaseUrl) {
    const dedicated = await dedicatedDatabase(options.databaseUrl, DB_PREFIX);
    try {
      const postgres = { url: dedicated.url, adminToken: BENCH_ADMIN_TOKEN };
      databases.push(
        await measureDatabase(
          options.supervisor,
          options.rounds,
          "PostgreSQL",
          `${dedicated.version}, database ${dedicated.name} created for the run, pool 10, in another process`,
          postgres,
        ),
      );
    } finally {
      await dedicated.drop();
    }
  }
  return {
    benchmark: "orders-feasibility",
    request: { locations: LOCATIONS, bodyBytes: BODY_TEXT.length },
    settings: { ...options.rounds, ...(options.databaseUrl ? { databaseUrl: redactUrl(options.databaseUrl) } : {}) },
    databases,
  };
}

export function formatOrdersFeasibility(results: OrdersFeasibilityResults): string {
  const lines = [
    `### orders-feasibility (${results.request.locations} locations, ${fmt(results.request.bodyBytes)} bytes; goal: feasibility ≥ ${GOAL.minThroughputRatio} × the quote's throughput, i.e. ≤ 2 × its time)`,
    "",
  ];
  for (const d of results.databases) {
    lines.push(
      `#### ${d.database} — ${d.detail}`,
      "",
      `History read: ${d.history.deliveredTasks} delivered tasks, ${d.history.zoomers} contributors. First location's estimate: \`${JSON.stringify(d.firstEstimate)}\`.`,
      "",
      describeRounds(results.settings, d.rounds).replace("one file at a time", "one request at a time (a pass = one POST)"),
      "",
      ...timingTable(d.rounds),
      "",
      ...ratioTable(d.rounds.ratios),
      "",
    );
  }
  return lines.join("\n");
}

export const benchmark = defineBenchmark({
  name: "orders-feasibility",
  header: fileBenchmarksHeader,
  run: ({ supervisor, options }) =>
    runOrdersFeasibility({ supervisor, rounds: options.rounds, ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) }),
  format: formatOrdersFeasibility,
});
