// Benchmark: end-to-end latency of order fulfilment, from a zoomer's photo upload to the
// `photos.delivered` request arriving at the order's delivery URL — through the standalone API
// with its in-process workers (scripts/api-server.ts): multipart intake, the QA job (decode,
// derivatives, measurements), the orders worker's verify job (checks.ts), its deliver job (weather,
// the delivered record, mission and order bookkeeping) and the webhook worker signing and POSTing.
// On PGlite always; on PostgreSQL too when TEST_DATABASE_URL is set (a database of its own is
// created on that server and dropped after), as orders-create does.
//
// A latency has no baseline to divide by: there is no ratio and no goal here, only p50/p99 (and,
// from bursts of simultaneous uploads, what the pipeline sustains). Rounds repeat the measurement
// so the spread between them shows how much of a figure is the machine rather than the service.
//
// Set-up, all through the public interfaces (lib/service/http/tests/orders-fulfilment.api.test.ts
// is the same flow as a test): an Enterprise organisation and its API key (operator API), its
// order-delivery secret, one order of N locations × the "overview" angle (it faces no single
// point, so the camera's direction is not judged; no time_of_day, so any hour passes) whose
// delivery.webhook_url is a node:http receiver in this process on 127.0.0.1 (the service allows
// private targets here, as the API tests' harness does), a zoomer and its token, the order
// confirmed. Then per task: take it (not timed), upload one photo made at its location, and time
// upload start → `photos.delivered` for its mission (matched by data.mission_id, signature
// checked with the delivery secret).
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "@/lib/db/client";
import { makePhoto } from "@/lib/demo/make-photo";
import { seededRandom } from "@/lib/demo/seeded-random";
import { onEachDatabase } from "./lib/databases";
import { fmt } from "./lib/file-report";
import { postJson, stringField } from "./lib/http";
import type { Supervisor } from "./lib/processes";
import { percentiles as nearestPercentiles, spread as roundSpread, spreadText, table, type Percentiles } from "./lib/interleave";
import { defineBenchmark } from "./lib/benchmark";
import { postgresNote, type RunOptions } from "./lib/cli";
import { seedOrderPartner } from "./lib/seed";
import { readAdminToken, startApi, type ApiPostgres, type RunningApi } from "./lib/targets";
import { wallClockMs } from "./lib/wall-clock";

const ORDERS = "/api/orders/v1";
const DB_PREFIX = "bench_delivery_";

export interface OrderDeliverySettings {
  /** Measured rounds; each round: `sequential` tasks one at a time, then one burst. */
  rounds: number;
  /** Tasks per round uploaded one at a time (the next once the previous one was delivered). */
  sequential: number;
  /** Tasks per round uploaded at the same moment (one zoomer holds at most 6). */
  burst: number;
  /** Tasks done first and discarded (JIT, sharp's start, first queries). */
  warmup: number;
  /** Also measure on this PostgreSQL (a dedicated database is created on it). */
  databaseUrl?: string;
}

export interface OrderDeliveryOptions extends OrderDeliverySettings {
  supervisor: Supervisor;
  /** The run's photos, made by the first database pass (set-up, not timed). */
  photos?: PhotoSet;
}

export const DEFAULT_SETTINGS = { sequential: 10, burst: 6, warmup: 3 } as const;
/** lib/service/assignments/field-assignments.ts: MAX_RESERVATIONS_PER_ZOOMER. */
const MAX_HELD = 6;
/** A delivery not seen within this long fails the run (the worker's polls are 0.5 s; a retry ≥ 1 min). */
const DELIVERY_TIMEOUT_MS = 30_000;
/**
 * One at a time, each upload starts after a pause drawn uniformly from [0, this) ms (seeded, not
 * timed). Without it the next upload would start a fixed time after the previous delivery, i.e. at
 * a fixed phase of the workers' idle 500 ms poll (which restarts when a job ends), and every
 * sample would hit the poll the same way; a zoomer's uploads come at any moment.
 */
const PAUSE_MS = 500;
/**
 * A round starts only while the database's run (start, set-up, warm-up, rounds) is younger than
 * this: about 90 s with all rounds on a machine at load 3–5, but two to three times that at load
 * 15; later rounds are then left out and the report says how many ran.
 */
const ROUNDS_BUDGET_MS = 100_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Under `npm run bench`: --rounds; PostgreSQL when TEST_DATABASE_URL is set. */
function settingsFrom(options: RunOptions): OrderDeliverySettings {
  const { databaseUrl } = options;
  return { ...DEFAULT_SETTINGS, rounds: options.rounds.rounds, ...(databaseUrl ? { databaseUrl } : {}) };
}

function header(options: RunOptions): string[] {
  const s = settingsFrom(options);
  return [
    `- order-delivery-latency: standalone API with its workers in a child process, receiver in the runner; ${s.warmup} warm-up tasks, then ${s.rounds} rounds of ` +
      `${s.sequential} uploads one at a time + a burst of ${s.burst} simultaneous uploads (rounds start within ${ROUNDS_BUDGET_MS / 1000} s of a database's start); latency = upload start → photos.delivered at the receiver; no baseline (a latency); ` +
      postgresNote(options),
  ];
}

// ---- the receiver (and a weather stub) ------------------------------------------------------

interface Arrival {
  type: string;
  missionId: string | null;
  /** When the request's headers arrived (lib/wall-clock.ts: the system clock, sub-ms). */
  at: number;
  signatureOk: boolean;
  photos: number;
  approved: boolean;
}

/**
 * The order's delivery URL: answers 200 once the body is read, records each request's event type,
 * data.mission_id and arrival time, and checks every X-SVC-Signature against the delivery secret.
 * GET /weather answers in Open-Meteo's shape at once, so delivery takes its weather path
 * (one HTTP call per photo) without waiting for the internet.
 */
class Receiver {
  readonly arrivals: Arrival[] = [];
  secret = "";
  private waiters = new Map<string, { resolve: (a: Arrival) => void; type: string }>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    const holder: { receiver?: Receiver } = {};
    const server = createServer((request, response) => holder.receiver?.handle(request, response));
    // Keep-alive longer than the webhook worker's idle gaps, as a real receiver behind a balancer.
    server.keepAliveTimeout = 120_000;
    server.headersTimeout = 125_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    holder.receiver = receiver;
    return receiver;
  }

  /** The first arrival of `type` for the mission (already there, or when it comes). */
  waitFor(type: string, missionId: string, timeoutMs: number): Promise<Arrival> {
    const seen = this.arrivals.find((a) => a.type === type && a.missionId === missionId);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(`${type} ${missionId}`);
        reject(new Error(`no ${type} for mission ${missionId} within ${timeoutMs / 1000} s (received so far: ${this.arrivals.length} requests)`));
      }, timeoutMs);
      this.waiters.set(`${type} ${missionId}`, {
        type,
        resolve: (a) => {
          clearTimeout(timer);
          resolve(a);
        },
      });
    });
  }

  first(type: string, missionId: string): Arrival | undefined {
    return this.arrivals.find((a) => a.type === type && a.missionId === missionId);
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const at = wallClockMs();
    if (request.method === "GET" && request.url?.startsWith("/weather")) return weather(request, response);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
      const raw = Buffer.concat(chunks);
      let body: { type?: unknown; data?: { mission_id?: unknown; photos?: { verification?: { status?: unknown } }[] } } = {};
      try {
        body = JSON.parse(raw.toString("utf8")) as typeof body;
      } catch {
        // recorded as an unknown type below
      }
      const header = request.headers["x-svc-event"];
      const type = typeof header === "string" ? header : typeof body.type === "string" ? body.type : "(unknown)";
      const missionId = typeof body.data?.mission_id === "string" ? body.data.mission_id : null;
      const expected = Buffer.from(createHmac("sha256", this.secret).update(raw).digest("hex"));
      const given = Buffer.from(String(request.headers["x-svc-signature"] ?? ""));
      const photos = Array.isArray(body.data?.photos) ? body.data.photos : [];
      const arrival: Arrival = {
        type,
        missionId,
        at,
        signatureOk: this.secret !== "" && given.length === expected.length && timingSafeEqual(given, expected),
        photos: photos.length,
        approved: photos.length > 0 && photos.every((p) => p.verification?.status === "approved"),
      };
      this.arrivals.push(arrival);
      if (missionId) {
        const key = `${type} ${missionId}`;
        const waiter = this.waiters.get(key);
        if (waiter) {
          this.waiters.delete(key);
          waiter.resolve(arrival);
        }
      }
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Open-Meteo's hourly answer for the asked day: clear sky, 18.5 °C every hour. */
function weather(request: IncomingMessage, response: ServerResponse): void {
  const day = new URL(request.url ?? "/", "http://x").searchParams.get("start_date") ?? "2026-01-01";
  const hours = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`);
  const body = JSON.stringify({ hourly: { time: hours, temperature_2m: hours.map(() => 18.5), weather_code: hours.map(() => 0) } });
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

// ---- set-up through the API -----------------------------------------------------------------

interface Task {
  id: string;
  missionId: string;
  locationId: string;
  lat: number;
  lng: number;
}

interface Zoomer {
  token: string;
}

async function request<T>(api: RunningApi, method: string, path: string, token: string, body?: unknown, expect = 200): Promise<T> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== expect) throw new Error(`${method} ${path} answered ${response.status} (wanted ${expect}): ${text.slice(0, 400)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

async function newZoomer(api: RunningApi, n: number): Promise<Zoomer> {
  const admin = readAdminToken(api);
  const created = await postJson(`${api.url}/api/admin/v1/zoomers`, { name: `Benchmark zoomer ${n}` }, admin, 201);
  const token = await postJson(
    `${api.url}/api/v1/auth/token`,
    { grant_type: "client_credentials", client_id: stringField(created, "client_id"), client_secret: stringField(created, "client_secret") },
    undefined,
    200,
  );
  return { token: stringField(token, "access_token") };
}

// Florence: a grid of points 250 m apart north–south, 300 m east–west (each its own mission area).
const origin = { lat: 43.76, lng: 11.24 };
const place = (i: number) => ({
  lat: Math.round((origin.lat + (i % 8) * 0.00225) * 1e6) / 1e6,
  lng: Math.round((origin.lng + Math.floor(i / 8) * 0.0037) * 1e6) / 1e6,
});

interface Prepared {
  orderId: string;
  apiKey: string;
  tasks: Task[];
  zoomers: Zoomer[];
}

async function prepareOrder(api: RunningApi, receiver: Receiver, count: number, zoomerCount: number): Promise<Prepared> {
  const partner = await seedOrderPartner(api);
  const secret = await request<{ secret: string }>(api, "POST", `${ORDERS}/delivery-secret`, partner.apiKey, undefined, 201);
  receiver.secret = secret.secret;
  const locations = Array.from({ length: count }, (_, i) => ({ location_id: locationId(i), name: `Benchmark place ${i}`, coordinates: place(i) }));
  const order = await request<{ id: string }>(
    api,
    "POST",
    `${ORDERS}/orders`,
    partner.apiKey,
    {
      client_reference: `bench-delivery-${randomUUID().slice(0, 8)}`,
      category: "cultural_exterior",
      description: "Order-delivery latency benchmark",
      requirements: { angles: ["overview"] },
      locations,
      delivery: { webhook_url: `${receiver.url}/hooks/delivered` },
    },
    201,
  );
  const confirmed = await request<{ status: string }>(api, "POST", `${ORDERS}/orders/${order.id}/confirm`, partner.apiKey, { payment_method: "card" });
  if (confirmed.status !== "in_progress") throw new Error(`order ${order.id} is ${confirmed.status} after confirm, not in_progress`);
  const where = new Map(locations.map((l) => [l.location_id, l.coordinates]));
  const tasks: Task[] = [];
  for (let page = 1; tasks.length < count; page++) {
    const list = await request<{ data: { id: string; mission_id: string; location_id: string; status: string }[] }>(
      api,
      "GET",
      `${ORDERS}/orders/${order.id}/assignments?per_page=100&page=${page}`,
      partner.apiKey,
    );
    if (list.data.length === 0) break;
    for (const a of list.data) {
      const at = where.get(a.location_id);
      if (!at) throw new Error(`assignment ${a.id}: unknown location ${a.location_id}`);
      if (a.status === "open") tasks.push({ id: a.id, missionId: a.mission_id, locationId: a.location_id, ...at });
    }
  }
  if (tasks.length !== count) throw new Error(`order ${order.id}: ${tasks.length} open tasks for ${count} locations`);
  tasks.sort((a, b) => a.locationId.localeCompare(b.locationId));
  const zoomers: Zoomer[] = [];
  for (let z = 0; z < zoomerCount; z++) zoomers.push(await newZoomer(api, z));
  return { orderId: order.id, apiKey: partner.apiKey, tasks, zoomers };
}

// ---- measuring ------------------------------------------------------------------------------

interface Sample {
  missionId: string;
  /** Just before the upload's fetch (lib/wall-clock.ts ms). */
  startedAt: number;
  /** Upload start → 202. */
  uploadMs: number;
  /** Upload start → photos.delivered at the receiver: the figure. */
  totalMs: number;
  /** photos.delivered arrival (wall clock ms). */
  arrivedAt: number;
}

/**
 * One photo per location (1600×1200, made at it, capture time now), keyed by location id: made
 * once per run and reused for the PostgreSQL pass — unless they are older than QA accepts (the
 * capture time may precede the mission by 15 min at most), then made again.
 */
interface PhotoSet {
  madeAt: number;
  byLocation: Map<string, Buffer>;
}

const PHOTOS_FRESH_MS = 10 * 60_000;
const locationId = (i: number) => `loc_${String(i).padStart(3, "0")}`;

async function photosFor(count: number, cached: PhotoSet | undefined): Promise<PhotoSet> {
  if (cached && cached.byLocation.size >= count && Date.now() - cached.madeAt < PHOTOS_FRESH_MS) return cached;
  const madeAt = Date.now();
  const byLocation = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = place(i);
    byLocation.set(
      locationId(i),
      await makePhoto({
        ...at,
        accuracyM: 5,
        directionDeg: (i * 47) % 360,
        capturedAt: new Date(madeAt),
        width: 1600,
        height: 1200,
        seed: 7000 + i * 13,
        utcOffsetMinutes: 60,
      }),
    );
  }
  return { madeAt, byLocation };
}

async function take(api: RunningApi, zoomer: Zoomer, task: Task): Promise<void> {
  const taken = await request<{ status: string }>(api, "POST", `/api/v1/field/assignments/${task.id}/take`, zoomer.token);
  if (taken.status !== "reserved") throw new Error(`task ${task.id} is ${taken.status} after take`);
}

/** Upload (timed from just before fetch) and wait for the delivery of the task's mission. */
async function uploadAndWait(api: RunningApi, receiver: Receiver, zoomer: Zoomer, task: Task, photo: Buffer): Promise<Sample> {
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), `${task.locationId}.jpg`);
  // Registered before the upload starts: the delivery cannot come before its waiter exists.
  const delivered = receiver.waitFor("photos.delivered", task.missionId, DELIVERY_TIMEOUT_MS);
  const startedAt = wallClockMs();
  const response = await fetch(`${api.url}/api/v1/field/assignments/${task.id}/photo`, {
    method: "POST",
    headers: { authorization: `Bearer ${zoomer.token}` },
    body: form,
  });
  const text = await response.text();
  const answeredAt = wallClockMs();
  if (response.status !== 202) {
    delivered.catch(() => {});
    throw new Error(`upload for ${task.id} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const arrival = await delivered;
  return { missionId: task.missionId, startedAt, uploadMs: answeredAt - startedAt, totalMs: arrival.at - startedAt, arrivedAt: arrival.at };
}

// ---- where the time goes: the service's own event stamps ------------------------------------

/** Events the service records on the way (recordEvent stamps them with new Date() in the transaction). */
type StageEvent = "submission.received" | "submission.approved" | "order.photo.verified" | "photos.delivered";
type Stamps = Map<string, Partial<Record<StageEvent, number>>>;

/** Read after the service stopped: PGlite's directory can only be opened once the API let go of it. */
async function readStamps(where: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string }): Promise<Stamps> {
  const database = await openDatabase(where.kind === "pglite" ? { kind: "pglite", dataDir: where.dataDir } : { kind: "postgres", url: where.url, poolSize: 1 });
  try {
    const rows = await queryRows<{ type: StageEvent; mission_id: string | null; ms: string | number }>(
      database.db,
      sql`select type, data->>'mission_id' as mission_id, extract(epoch from created_at) * 1000 as ms from events
          where type in ('submission.received', 'submission.approved', 'order.photo.verified', 'photos.delivered')`,
    );
    const stamps: Stamps = new Map();
    for (const row of rows) {
      if (!row.mission_id) continue;
      const entry = stamps.get(row.mission_id) ?? {};
      // The first of each (a retried job would record again; none is expected).
      entry[row.type] ??= Number(row.ms);
      stamps.set(row.mission_id, entry);
    }
    return stamps;
  } finally {
    await database.close();
  }
}

const STAGES = ["intake", "qa", "verify", "deliver", "webhook"] as const;
type Stage = (typeof STAGES)[number];

const STAGE_LABELS: Record<Stage, string> = {
  intake: "upload start → submission.received recorded (request, multipart to disk, EXIF, intake transaction)",
  qa: "→ submission.approved recorded (QA worker woken by the upload; decode, derivatives, measurements, QA transaction)",
  verify: "→ order.photo.verified recorded (the orders worker picking up the verify job; reads, verifyPhoto)",
  deliver: "→ photos.delivered recorded (deliver job: reads, weather call, record, mission/order bookkeeping)",
  webhook: "→ photos.delivered at the receiver (webhook worker: claim, sign, POST)",
};

/** Per sample, the time in each stage (ms); null when an event is missing. */
function stagesOf(sample: Sample, stamps: Stamps): Record<Stage, number> | null {
  const e = stamps.get(sample.missionId);
  const received = e?.["submission.received"];
  const approved = e?.["submission.approved"];
  const verified = e?.["order.photo.verified"];
  const delivered = e?.["photos.delivered"];
  if (received === undefined || approved === undefined || verified === undefined || delivered === undefined) return null;
  return {
    intake: received - sample.startedAt,
    qa: approved - received,
    verify: verified - approved,
    deliver: delivered - verified,
    webhook: sample.arrivedAt - delivered,
  };
}

export interface StageSummary {
  stage: Stage;
  label: string;
  /** Over the samples of the mode. */
  ms: Percentiles;
}

function stageSummary(samples: Sample[], stamps: Stamps): { stages: StageSummary[]; missing: number } {
  const per = samples.map((s) => stagesOf(s, stamps));
  const known = per.filter((x): x is Record<Stage, number> => x !== null);
  return {
    stages: STAGES.map((stage) => ({ stage, label: STAGE_LABELS[stage], ms: percentiles(known.map((k) => k[stage])) })),
    missing: per.length - known.length,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

const percentiles = (values: number[]) => nearestPercentiles(values, round1);

export interface RoundResult {
  sequential: { totalMs: Percentiles; uploadMs: Percentiles; samples: Sample[] };
  burst: { totalMs: Percentiles; samples: Sample[]; seconds: number; deliveriesPerSecond: number };
  loadAverage1m: number;
}

export interface DatabaseResult {
  database: "PGlite" | "PostgreSQL";
  detail: string;
  orderId: string;
  tasks: number;
  rounds: RoundResult[];
  /** All sequential samples of all rounds together. */
  sequentialMs: Percentiles;
  sequentialUploadMs: Percentiles;
  burstMs: Percentiles;
  /** From the service's event stamps (read after the run), one at a time and in bursts. */
  stages: { sequential: StageSummary[]; burst: StageSummary[]; missing: number };
  /** Each round's p50 and p99 (= its max at ≤ 100 samples), one at a time; the bursts' p50 and deliveries/s. */
  perRound: { p50: number[]; p99: number[]; burstP50: number[]; burstDeliveriesPerSecond: number[] };
  checks: {
    deliveries: number;
    expected: number;
    duplicates: number;
    badSignatures: number;
    notApproved: number;
    orderStatus: string;
    otherEvents: Record<string, number>;
  };
  seconds: number;
}

const log = (database: string, message: string) => console.error(`[bench] order-delivery-latency ${database}: ${message}`);

async function runRound(
  api: RunningApi,
  receiver: Receiver,
  zoomers: Zoomer[],
  tasks: Task[],
  photos: Map<string, Buffer>,
  settings: OrderDeliverySettings,
  pause: () => number,
): Promise<RoundResult> {
  const zoomer = zoomers[0] as Zoomer;
  const sequential: Sample[] = [];
  for (const task of tasks.slice(0, settings.sequential)) {
    await take(api, zoomer, task);
    await sleep(pause());
    sequential.push(await uploadAndWait(api, receiver, zoomer, task, photos.get(task.id) as Buffer));
  }
  const burstTasks = tasks.slice(settings.sequential, settings.sequential + settings.burst);
  // Taken first (not timed), then uploaded together.
  const holders = burstTasks.map((task, i) => ({ task, zoomer: zoomers[1 + Math.floor(i / MAX_HELD)] ?? zoomer }));
  for (const h of holders) await take(api, h.zoomer, h.task);
  const started = wallClockMs();
  const burst = await Promise.all(holders.map((h) => uploadAndWait(api, receiver, h.zoomer, h.task, photos.get(h.task.id) as Buffer)));
  // First upload start → last delivery (uploadAndWait resolves on its delivery's arrival).
  const span = (Math.max(...burst.map((b) => b.arrivedAt)) - started) / 1000;
  return {
    sequential: {
      totalMs: percentiles(sequential.map((s) => s.totalMs)),
      uploadMs: percentiles(sequential.map((s) => s.uploadMs)),
      samples: sequential,
    },
    burst: {
      totalMs: percentiles(burst.map((s) => s.totalMs)),
      samples: burst,
      seconds: Math.round(span * 1000) / 1000,
      deliveriesPerSecond: Math.round((burst.length / span) * 100) / 100,
    },
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

const taskCount = (s: OrderDeliverySettings) => s.warmup + s.rounds * (s.sequential + s.burst);

interface Measured {
  orderId: string;
  count: number;
  rounds: RoundResult[];
  checks: DatabaseResult["checks"];
}

/** Set-up, warm-up and the rounds against a running API; the checks read through the API. */
async function measureOn(api: RunningApi, receiver: Receiver, options: OrderDeliveryOptions, database: string, begun: number): Promise<Measured> {
  const perRound = options.sequential + options.burst;
  const count = taskCount(options);
  const zoomerCount = 1 + Math.ceil(options.burst / MAX_HELD);
  const prepared = await prepareOrder(api, receiver, count, zoomerCount);
  log(database, `order ${prepared.orderId}: ${count} locations × overview, confirmed`);
  const set = await photosFor(count, options.photos);
  options.photos = set;
  const photos = new Map(prepared.tasks.map((t) => [t.id, set.byLocation.get(t.locationId) as Buffer]));
  const [first] = prepared.zoomers;
  if (!first) throw new Error("no zoomer");
  for (const task of prepared.tasks.slice(0, options.warmup)) {
    await take(api, first, task);
    const s = await uploadAndWait(api, receiver, first, task, photos.get(task.id) as Buffer);
    log(database, `warm-up: ${fmt(s.totalMs)} ms`);
  }
  const rounds: RoundResult[] = [];
  const random = seededRandom(20261124);
  const pause = () => Math.floor(random() * PAUSE_MS);
  for (let r = 0; r < options.rounds; r++) {
    if (r > 0 && performance.now() - begun > ROUNDS_BUDGET_MS) {
      log(database, `time budget (${ROUNDS_BUDGET_MS / 1000} s) spent: ${r} of ${options.rounds} rounds`);
      break;
    }
    const from = options.warmup + r * perRound;
    const round = await runRound(api, receiver, prepared.zoomers, prepared.tasks.slice(from, from + perRound), photos, options, pause);
    rounds.push(round);
    log(
      database,
      `round ${r + 1}/${options.rounds}: one at a time p50 ${fmt(round.sequential.totalMs.p50)} ms, max ${fmt(round.sequential.totalMs.max)} ms; ` +
        `burst of ${options.burst}: p50 ${fmt(round.burst.totalMs.p50)} ms, max ${fmt(round.burst.totalMs.max)} ms, ${fmt(round.burst.deliveriesPerSecond, 2)} deliveries/s`,
    );
  }
  // Checks: every mission delivered once, signed, approved; the order fulfilled (when every round ran).
  const delivered = receiver.arrivals.filter((a) => a.type === "photos.delivered");
  const missions = new Set(delivered.map((a) => a.missionId));
  const status = await request<{ status: string }>(api, "GET", `${ORDERS}/orders/${prepared.orderId}`, prepared.apiKey);
  const otherEvents: Record<string, number> = {};
  for (const a of receiver.arrivals) if (a.type !== "photos.delivered") otherEvents[a.type] = (otherEvents[a.type] ?? 0) + 1;
  return {
    orderId: prepared.orderId,
    count,
    rounds,
    checks: {
      deliveries: delivered.length,
      expected: options.warmup + rounds.length * perRound,
      duplicates: delivered.length - missions.size,
      badSignatures: receiver.arrivals.filter((a) => !a.signatureOk).length,
      notApproved: delivered.filter((a) => !a.approved || a.photos !== 1).length,
      orderStatus: status.status,
      otherEvents,
    },
  };
}

async function measureDatabase(
  options: OrderDeliveryOptions,
  database: DatabaseResult["database"],
  detail: string,
  postgres: ApiPostgres | undefined,
): Promise<DatabaseResult> {
  const begun = performance.now();
  const receiver = await Receiver.start();
  let api: RunningApi;
  try {
    // The photos are made here while the service starts in its own process (set-up on two cores).
    const [started, photos] = await Promise.all([
      startApi(options.supervisor, "standalone", {
        ...(postgres ? { postgres } : {}),
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEATHER_URL: `${receiver.url}/weather` },
      }),
      photosFor(taskCount(options), options.photos),
    ]);
    api = started;
    options.photos = photos;
  } catch (error) {
    // An open server would keep the runner alive after the failure is reported.
    await receiver.close();
    throw error;
  }
  let measured: Measured;
  try {
    measured = await measureOn(api, receiver, options, database, begun);
  } finally {
    await api.process.stop();
    await receiver.close();
  }
  const stamps = await readStamps(postgres ? { kind: "postgres", url: postgres.url } : { kind: "pglite", dataDir: api.dataDir });
  const { rounds } = measured;
  const sequential = rounds.flatMap((r) => r.sequential.samples);
  const bursts = rounds.flatMap((r) => r.burst.samples);
  const seqStages = stageSummary(sequential, stamps);
  const burstStages = stageSummary(bursts, stamps);
  return {
    database,
    detail,
    orderId: measured.orderId,
    tasks: measured.count,
    rounds,
    sequentialMs: percentiles(sequential.map((s) => s.totalMs)),
    sequentialUploadMs: percentiles(sequential.map((s) => s.uploadMs)),
    burstMs: percentiles(bursts.map((s) => s.totalMs)),
    stages: { sequential: seqStages.stages, burst: burstStages.stages, missing: seqStages.missing + burstStages.missing },
    perRound: {
      p50: rounds.map((r) => r.sequential.totalMs.p50),
      p99: rounds.map((r) => r.sequential.totalMs.p99),
      burstP50: rounds.map((r) => r.burst.totalMs.p50),
      burstDeliveriesPerSecond: rounds.map((r) => r.burst.deliveriesPerSecond),
    },
    checks: measured.checks,
    seconds: Math.round((performance.now() - begun) / 100) / 10,
  };
}

export interface OrderDeliveryResults {
  benchmark: "order-delivery-latency";
  settings: Omit<OrderDeliverySettings, "databaseUrl"> & { databaseUrl?: string };
  databases: DatabaseResult[];
}

export async function runOrderDeliveryLatency(options: OrderDeliveryOptions): Promise<OrderDeliveryResults> {
  const databases = await onEachDatabase(options.databaseUrl, DB_PREFIX, (database, detail, postgres) => measureDatabase(options, database, detail, postgres));
  const { rounds, sequential, burst, warmup, databaseUrl } = options;
  return {
    benchmark: "order-delivery-latency",
    settings: { rounds, sequential, burst, warmup, ...(databaseUrl ? { databaseUrl: databaseUrl.replace(/\/\/[^@]*@/, "//…@") } : {}) },
    databases,
  };
}

// ---- report ---------------------------------------------------------------------------------

const list = (values: number[], digits = 0) => values.map((v) => fmt(v, digits)).join(", ");
const spread = (values: number[], digits = 0) => spreadText(roundSpread(values), digits);

function checksText(d: DatabaseResult): string {
  const c = d.checks;
  const problems = [
    c.deliveries !== c.expected ? `${c.deliveries} photos.delivered for ${c.expected} tasks` : "",
    c.duplicates ? `${c.duplicates} duplicates` : "",
    c.badSignatures ? `**${c.badSignatures} requests with a wrong signature**` : "",
    c.notApproved ? `**${c.notApproved} deliveries not one approved photo**` : "",
    c.orderStatus !== "fulfilled" && c.expected === d.tasks ? `order ${c.orderStatus}, not fulfilled` : "",
  ].filter(Boolean);
  const others = Object.entries(c.otherEvents)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const done = c.expected === d.tasks ? "order fulfilled" : `order ${c.orderStatus} (${d.rounds.length} rounds ran: the time budget)`;
  return `${problems.length ? problems.join("; ") : `${c.deliveries}/${c.expected} delivered once, all signatures valid, every delivery one approved photo, ${done}`}; other requests to the delivery URL: ${others || "none"}`;
}

export function formatOrderDeliveryLatency(results: OrderDeliveryResults): string {
  const s = results.settings;
  const rows = results.databases.flatMap((d) => {
    const seq = d.sequentialMs;
    const burst = d.burstMs;
    return [
      [
        d.database,
        "one at a time",
        String(seq.n),
        `**${fmt(seq.p50)}**`,
        fmt(seq.p90),
        `**${fmt(seq.p99)}**`,
        fmt(seq.max),
        `p50 ${spread(d.perRound.p50)}; max ${spread(d.perRound.p99)}`,
        "–",
      ],
      [
        d.database,
        `bursts of ${s.burst}`,
        String(burst.n),
        fmt(burst.p50),
        fmt(burst.p90),
        fmt(burst.p99),
        fmt(burst.max),
        `p50 ${spread(d.perRound.burstP50)}`,
        spread(d.perRound.burstDeliveriesPerSecond, 2),
      ],
    ];
  });
  return [
    "### order-delivery-latency: photo upload → photos.delivered at the order's delivery URL",
    "",
    "No baseline and no ratio: a latency is reported as it is (p50/p99), with the spread over rounds.",
    "",
    `Method: standalone API (scripts/api-server.ts, NODE_ENV=production, its QA, orders and webhook workers in the same process; WEBHOOK_ALLOW_PRIVATE_TARGETS=true; WEATHER_URL = a stub in the runner answering at once), ` +
      `receiver (node:http, 200 at once) in the runner process, ${cpus().length} CPUs shared by all. One order of ${results.databases[0]?.tasks ?? "?"} locations × angle overview, no time_of_day, delivery.webhook_url = the receiver, confirmed with the test card; ` +
      `1600×1200 JPEGs from makePhoto taken at each location (made once per run, before any clock starts). ${s.warmup} warm-up tasks discarded, then ${s.rounds} rounds (a round starts only within ${ROUNDS_BUDGET_MS / 1000} s of the database run's start: ${results.databases.map((d) => `${d.database} ran ${d.rounds.length}`).join(", ")}), each ${s.sequential} tasks one at a time ` +
      `(take, a random pause of 0–${PAUSE_MS} ms so uploads do not keep one phase of the workers' 500 ms idle poll — neither timed —, upload, wait for its delivery, next) and then a burst of ${s.burst} tasks taken first and uploaded together. Latency: just before the upload's fetch → ` +
      "the photos.delivered request for that mission arriving at the receiver (same process, same clock: lib/wall-clock.ts). Percentiles are nearest-rank over all samples of the mode; " +
      "with ≤ 100 samples the p99 is the slowest or second-slowest one. Burst deliveries/s = burst size ÷ (first upload start → last delivery).",
    "",
    ...table(
      ["database", "mode", "samples", "p50 ms", "p90 ms", "p99 ms", "max ms", "per round: median (min–max) ms", "deliveries/s (bursts)"],
      "llrrrrrlr",
      rows,
    ),
    "",
    "Where the time goes (the service's own event stamps, read from its database after the run; recordEvent stamps each in its transaction with new Date(), the runner's clock is the same system clock): " +
      "median per stage (p90) in ms, one at a time | in bursts.",
    "",
    `| stage | ${results.databases.map((d) => `${d.database} one at a time | ${d.database} bursts`).join(" | ")} |`,
    `|---|${results.databases.map(() => "---:|---:").join("|")}|`,
    ...STAGES.map((stage, i) => {
      const cell = (list: StageSummary[]) => {
        const ms = list[i]?.ms;
        return ms && ms.n ? `${fmt(ms.p50)} (${fmt(ms.p90)})` : "–";
      };
      return `| ${STAGE_LABELS[stage]} | ${results.databases.map((d) => `${cell(d.stages.sequential)} | ${cell(d.stages.burst)}`).join(" | ")} |`;
    }),
    `| (upload → 202, inside the first stage) | ${results.databases.map((d) => `${fmt(d.sequentialUploadMs.p50)} (${fmt(d.sequentialUploadMs.p90)}) | –`).join(" | ")} |`,
    "",
    ...results.databases.flatMap((d) => [
      `${d.database}: ${d.detail}; ${d.seconds} s for the whole database run (start, set-up, photos, warm-up, rounds). Checks: ${checksText(d)}${d.stages.missing ? `; **${d.stages.missing} samples without all stage events**` : ""}. ` +
        `Per round, one at a time, p50: ${list(d.perRound.p50)} ms; max: ${list(d.rounds.map((r) => r.sequential.totalMs.max))} ms; bursts p50: ${list(d.perRound.burstP50)} ms, ` +
        `deliveries/s: ${list(d.perRound.burstDeliveriesPerSecond, 2)}. ` +
        `1-min load average after each round: ${list(
          d.rounds.map((r) => r.loadAverage1m),
          2,
        )} (on ${cpus().length} CPUs).`,
      "",
    ]),
    ...(s.databaseUrl ? [] : ["PostgreSQL: not measured (set TEST_DATABASE_URL, e.g. from `bash scripts/ci/start-postgres.sh <dir>`)."]),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "order-delivery-latency",
  header,
  run: ({ supervisor, options }) => runOrderDeliveryLatency({ supervisor, ...settingsFrom(options) }),
  format: formatOrderDeliveryLatency,
});
