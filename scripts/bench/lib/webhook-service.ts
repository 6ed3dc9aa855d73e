// The subject of the webhook-delivery benchmark: a real service runtime in this process with its
// webhook worker running (lib/service/worker/background.ts: claim 8, process them in parallel), on
// in-memory PGlite or on PostgreSQL, plus the queries the benchmark needs around it: enqueue
// events through recordEvent, wait until deliveries are settled, read back what was sent.
import { and, count, eq, sql } from "drizzle-orm";
import { openDatabase, type Database } from "@/lib/db/client";
import { webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { parseEnv } from "@/lib/env";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import type { ServiceContext } from "@/lib/service/context";
import { recordEvent } from "@/lib/service/events/record-event";
import { createMission } from "@/lib/service/missions/create-mission";
import { configFromEnv, createRuntime, type ServiceRuntime } from "@/lib/runtime/runtime";
import { ephemeralSecretBox } from "@/lib/auth/secret-box";
import { createWebhook } from "@/lib/service/webhooks/endpoints";
import { BENCH_ADMIN_TOKEN, dedicatedDatabase } from "./databases";
import { checkReceiver, receiverProblems, waitForArrivals, type Receiver, type ReceiverCheck, type ReceiverRecords } from "./webhook-receiver-client";
import { wallClockMs } from "./wall-clock";

export type DatabaseChoice = { kind: "pglite" } | { kind: "postgres"; url: string };

export interface BenchEndpoint {
  orgId: string;
  endpointId: string;
  secret: string;
}

export interface BenchService {
  runtime: ServiceRuntime;
  /** "PGlite" or "PostgreSQL", for the report's tables. */
  label: string;
  /** What exactly: in memory, or which database on which server version and pool size. */
  detail: string;
  /** The `data` of every benchmark event: a real serialised mission, as mission.created carries. */
  eventData: Record<string, unknown>;
  /** A fresh organisation with one endpoint subscribed to everything, so rounds never overlap. */
  newEndpoint(url: string): Promise<BenchEndpoint>;
  close(): Promise<void>;
}

export const EVENT_TYPE = "mission.created";
const POLL_MS = 20;
/** The run's own PostgreSQL database (lib/databases.ts): the worker claims every due delivery in it. */
const DB_PREFIX = "bench_webhooks_";

/** The production defaults (lib/env.ts), except that 127.0.0.1 targets are allowed. */
function benchConfig(dataDir: string) {
  const e = parseEnv({ DATA_DIR: dataDir, PUBLIC_ORIGIN: "http://127.0.0.1:3000", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  return configFromEnv(e, BENCH_ADMIN_TOKEN);
}

// ---- the service ------------------------------------------------------------------------------

interface Opened {
  database: Database;
  label: string;
  detail: string;
  drop: () => Promise<void>;
}

async function openChosen(choice: DatabaseChoice): Promise<Opened> {
  if (choice.kind === "pglite")
    return {
      database: await openDatabase({ kind: "pglite", dataDir: null }),
      label: "PGlite",
      detail: "in memory, in the runner process",
      drop: async () => {},
    };
  const dedicated = await dedicatedDatabase(choice.url, DB_PREFIX);
  try {
    // The pool size the service uses when DATABASE_URL is set (lib/db/client.ts default).
    const database = await openDatabase({ kind: "postgres", url: dedicated.url });
    const detail = `${dedicated.version}, database ${dedicated.name} created for the run on the given server, pool 10 (the service's default)`;
    return { database, label: "PostgreSQL", detail, drop: dedicated.drop };
  } catch (error) {
    await dedicated.drop();
    throw error;
  }
}

async function templateEventData(ctx: ServiceContext): Promise<Record<string, unknown>> {
  // Its own organisation without endpoints: the mission.created event it records goes nowhere.
  const org = await createOrganisation({ db: ctx.db, name: "Benchmark template" });
  const square = [
    [
      [11.255, 43.768],
      [11.26, 43.768],
      [11.26, 43.773],
      [11.255, 43.773],
      [11.255, 43.768],
    ],
  ];
  const mission = await createMission({
    db: ctx.db,
    orgId: org.id,
    input: {
      title: "Webhook benchmark mission",
      description: "Façade and roof, north side first.",
      bounds: { type: "Polygon", coordinates: square },
      required_images: 12,
    },
  });
  return { mission };
}

export async function openBenchService(choice: DatabaseChoice, dataDir: string): Promise<BenchService> {
  const { database, label, detail, drop } = await openChosen(choice);
  let runtime: ServiceRuntime;
  try {
    runtime = await createRuntime({ database, config: benchConfig(dataDir), secretBox: ephemeralSecretBox(), runWorker: true });
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }
  const close = async () => {
    try {
      await runtime.stop();
    } finally {
      await drop();
    }
  };
  try {
    const { ctx } = runtime;
    const eventData = await templateEventData(ctx);
    const newEndpoint = async (url: string): Promise<BenchEndpoint> => {
      const org = await createOrganisation({ db: ctx.db, name: "Webhook benchmark" });
      const endpoint = await createWebhook(ctx, org.id, { url });
      return { orgId: org.id, endpointId: endpoint.id, secret: endpoint.secret };
    };
    return { runtime, label, detail, eventData, newEndpoint, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---- enqueue and observe -----------------------------------------------------------------------

/** `size` events in one transaction, as a service write that causes several events would. */
export async function enqueueBatch(ctx: ServiceContext, orgId: string, data: Record<string, unknown>, size: number): Promise<string[]> {
  const ids = await ctx.db.transaction(async (tx) => {
    const created: string[] = [];
    for (let i = 0; i < size; i++) created.push((await recordEvent(tx, { orgId, type: EVENT_TYPE, data })).eventId);
    return created;
  });
  return ids;
}

async function statusCounts(ctx: ServiceContext, endpointId: string): Promise<Record<string, number>> {
  const rows = await ctx.db
    .select({ status: webhookDeliveries.status, n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .groupBy(webhookDeliveries.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Up to `limit` attempts of the endpoint that did not get a 2xx, described for the report. */
export async function failedAttempts(ctx: ServiceContext, endpointId: string, limit = 3): Promise<string[]> {
  const rows = await ctx.db
    .select({ error: webhookAttempts.error, status: webhookAttempts.statusCode, startedAt: webhookAttempts.startedAt, durationMs: webhookAttempts.durationMs })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(
      and(eq(webhookDeliveries.endpointId, endpointId), sql`(${webhookAttempts.statusCode} is null or ${webhookAttempts.statusCode} not between 200 and 299)`),
    )
    .orderBy(webhookAttempts.startedAt)
    .limit(limit);
  return rows.map((r) => `${r.status ?? "no status"} after ${r.durationMs ?? "?"} ms (started ${r.startedAt.toISOString()}): ${r.error ?? ""}`);
}

/**
 * Polls the database until `expected` deliveries of the endpoint are `succeeded`; returns the
 * moment that was first seen (lib/wall-clock.ts ms; resolution: the poll interval, 20 ms).
 */
export async function waitForSucceeded(ctx: ServiceContext, endpointId: string, expected: number, timeoutMs: number): Promise<number> {
  const deadline = wallClockMs() + timeoutMs;
  const where = and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "succeeded"));
  while (wallClockMs() < deadline) {
    const [row] = await ctx.db.select({ n: count() }).from(webhookDeliveries).where(where);
    if ((row?.n ?? 0) >= expected) return wallClockMs();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const counts = JSON.stringify(await statusCounts(ctx, endpointId));
  const errors = (await failedAttempts(ctx, endpointId)).join("; ");
  throw new Error(`webhook deliveries not all succeeded after ${timeoutMs / 1000} s: ${counts}${errors ? `; attempts: ${errors}` : ""}`);
}

/** Attempts written to the delivery log for the endpoint's deliveries (the "log" of the path). */
export async function attemptsLogged(ctx: ServiceContext, endpointId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(eq(webhookDeliveries.endpointId, endpointId));
  return row?.n ?? 0;
}

export interface SentDelivery {
  id: string;
  eventId: string;
  payload: string;
  attempt: number;
}

/** The exact bodies the service sent (fixed at enqueue), for the baseline to send again. */
export async function sentDeliveries(ctx: ServiceContext, endpointId: string): Promise<SentDelivery[]> {
  return ctx.db
    .select({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId, payload: webhookDeliveries.payload, attempt: webhookDeliveries.attemptCount })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.eventId);
}

/** More attempts than deliveries means some failed and were retried (after ≥ 1 min): say which. */
export async function attemptProblems(service: BenchService, endpointId: string, logged: number, deliveries: number): Promise<string[]> {
  if (logged === deliveries) return [];
  const failed = await failedAttempts(service.runtime.ctx, endpointId);
  return [`${logged} attempts logged for ${deliveries} deliveries${failed.length ? `; failed: ${failed.join("; ")}` : ""}`];
}

/** Generous: a stuck worker must fail the run, a slow machine must not. */
const settleTimeoutMs = (events: number) => 60_000 + events * 25;

/** All `expected` deliveries of the endpoint settled as succeeded; the moment that was seen. */
export async function waitForDelivered(service: BenchService, receiver: Receiver, endpointId: string, expected: number): Promise<number> {
  await waitForArrivals(receiver, expected, settleTimeoutMs(expected));
  return waitForSucceeded(service.runtime.ctx, endpointId, expected, settleTimeoutMs(expected));
}

/**
 * Waits until the `expected` events' deliveries to the endpoint are settled (waitForDelivered),
 * then checks what the receiver saw and the attempts the service logged: `problems` is empty
 * when every event arrived once, signed, with one attempt logged each.
 */
export async function settleAndCheck(
  service: BenchService,
  receiver: Receiver,
  endpointId: string,
  expected: Set<string>,
): Promise<{ finished: number; logged: number; records: ReceiverRecords; check: ReceiverCheck; problems: string[] }> {
  const finished = await waitForDelivered(service, receiver, endpointId, expected.size);
  const logged = await attemptsLogged(service.runtime.ctx, endpointId);
  const records = await receiver.records();
  const check = checkReceiver(records, expected);
  const problems = [...receiverProblems(check), ...(await attemptProblems(service, endpointId, logged, expected.size))];
  return { finished, logged, records, check, problems };
}

/** A bench service on `choice` (PGlite in `dataDir`) for the time of `work`, closed after it. */
export async function withBenchService<T>(choice: DatabaseChoice, dataDir: string, work: (service: BenchService) => Promise<T>): Promise<T> {
  const service = await openBenchService(choice, dataDir);
  try {
    return await work(service);
  } finally {
    await service.close();
  }
}
