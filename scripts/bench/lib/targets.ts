// The servers under test, each started in its own child process so that the load generator (in
// the runner's process) never shares an event loop with the server it measures.
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort, waitForOk } from "./http";
import type { ManagedProcess, Supervisor } from "./processes";

export const ROOT = resolve(import.meta.dirname, "../../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");

// High enough never to answer 429 during a run, while the counting itself (one upsert per
// request) still happens: it is part of the path being measured.
const RATE_LIMIT_UNDER_TEST = "100000000";
/** A fixed 32-byte key (hex) for PostgreSQL targets: a run's throwaway database, nothing to protect. */
const BENCH_SECRETS_KEY = "b".repeat(64);

export type ApiKind = "standalone" | "next";

export interface RunningTarget {
  url: string;
  process: ManagedProcess;
}

export interface RunningApi extends RunningTarget {
  kind: ApiKind;
  dataDir: string;
  /** The operator token when it was given (PostgreSQL); otherwise it is in dataDir. */
  adminToken?: string;
}

/** A PostgreSQL database for the API instead of the embedded one (the service needs ADMIN_TOKEN then). */
export interface ApiPostgres {
  url: string;
  adminToken: string;
}

function apiEnv(port: number, dataDir: string, postgres: ApiPostgres | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // Both targets as deployed; `next start` forces production anyway, tsx would default to development.
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT_UNDER_TEST,
    RATE_LIMIT_PER_HOUR: RATE_LIMIT_UNDER_TEST,
    // Empty means unset (lib/env.ts); set explicitly so a developer's .env (which Next loads, but
    // never over variables already set) cannot point a target at another database or token.
    DATABASE_URL: postgres?.url ?? "",
    ADMIN_TOKEN: postgres?.adminToken ?? "",
    // The key sealing secrets at rest: with DATABASE_URL the service requires one (every instance
    // shares it) and never generates it; the embedded default generates its own in DATA_DIR/keys.
    SECRETS_KEY: postgres ? BENCH_SECRETS_KEY : "",
    SECRETS_KEY_PREVIOUS: "",
    SECRETS_KEY_FILE: "",
    // The demo (on by default with the embedded database) seeds a fresh DATA_DIR and then submits
    // generated photos in the background (image rendering, QA): load of its own, unrelated to
    // the request under test, landing in the middle of the measurement. The job worker stays on.
    DEMO: "off",
    // The bundled offline basemap, as the bare map page uses: a street style would be fetched from
    // the internet (off this machine, and a 6 s fallback where there is none).
    MAP_BASEMAP: "offline",
    MAP_IMAGERY_URL: "",
    MAP_IMAGERY_ATTRIBUTION: "",
    // A benchmark's own settings last (e.g. private webhook targets, a local weather stub).
    ...extra,
  };
}

function apiCommand(kind: ApiKind, port: number, cpuProfileDir: string | undefined, root: string, node?: string): { command: string; args: string[] } {
  // `npm start`: the custom server (Hono before Next) over the production build.
  const script = kind === "next" ? "scripts/server.ts" : "scripts/api-server.ts";
  // Another Node binary (e.g. the `node` package's 24.x): tsx as a loader of that node, as the Dockerfile runs it.
  if (node) return { command: node, args: ["--import", "tsx", script] };
  if (cpuProfileDir) {
    // No tsx wrapper process: --cpu-prof must be on the node process that runs the server.
    return {
      command: process.execPath,
      args: ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`, "--import", "tsx", script],
    };
  }
  return { command: kind === "next" ? join(root, "node_modules/.bin/tsx") : TSX, args: [script] };
}

/**
 * Starts the API (standalone or in Next) and waits for /api/health: on a fresh embedded database,
 * or on `dataDir` when given (seeded beforehand, and closed: PGlite allows one process), or on
 * `postgres` when given (migrated by the service on start). `env` adds or overrides variables of
 * the service (after the defaults above).
 */
export async function startApi(
  supervisor: Supervisor,
  kind: ApiKind,
  options: {
    cpuProfileDir?: string;
    dataDir?: string;
    postgres?: ApiPostgres;
    env?: Record<string, string>;
    /** Another checkout of the app (with its own node_modules and build) to run instead of this one. */
    root?: string;
    /** Another Node binary to run the server with (default: the `node` on PATH, through tsx). */
    node?: string;
  } = {},
): Promise<RunningApi> {
  const port = await freePort();
  const dataDir = options.dataDir ?? supervisor.tempDir(`${kind}-data`);
  const root = options.root ?? ROOT;
  const { command, args } = apiCommand(kind, port, options.cpuProfileDir, root, options.node);
  const child = supervisor.spawn({
    name: kind,
    command,
    args,
    cwd: root,
    env: apiEnv(port, dataDir, options.postgres, options.env),
  });
  const url = `http://127.0.0.1:${port}`;
  // Migrations on a fresh PGlite directory, and Next's start, take a while on two cores.
  await waitForOk(`${url}/api/health`, child, 120_000);
  return { kind, url, process: child, dataDir, ...(options.postgres ? { adminToken: options.postgres.adminToken } : {}) };
}

/**
 * A standalone API on a fresh data directory, seeded by `seed`, then stopped and its directory
 * copied once per name (PGlite allows one process per directory; the copies are taken before
 * anything opens them), so that peers on a copy read the same rows and verify the same tokens (the
 * same key; `origin`, the tokens' issuer) as the service started again on `dataDir` with
 * PUBLIC_ORIGIN = `origin`.
 */
export async function seedStandaloneAndCopy<S, C extends Record<string, string | undefined>>(
  supervisor: Supervisor,
  seed: (api: RunningApi) => Promise<S>,
  /** A temp directory name per copy (none made where it is undefined); the result has each one's directory under the same key. */
  copies: C,
): Promise<{ seeded: S; dataDir: string; origin: string; copies: { [K in keyof C]: C[K] } }> {
  const first = await startApi(supervisor, "standalone");
  const seeded = await seed(first);
  await first.process.stop();
  const copied = Object.fromEntries(
    Object.entries(copies).flatMap(([key, name]) => {
      if (name === undefined) return [];
      const dir = supervisor.tempDir(name);
      cpSync(first.dataDir, dir, { recursive: true });
      return [[key, dir]];
    }),
  ) as { [K in keyof C]: C[K] };
  return { seeded, dataDir: first.dataDir, origin: first.url, copies: copied };
}

/** Throws unless `compareDir` (--compare-dir: another checkout) has a production build. */
export function checkCompareBuild(compareDir: string | undefined): void {
  if (compareDir && !existsSync(join(compareDir, ".next/BUILD_ID"))) throw new Error(`--compare-dir ${compareDir} has no production build (.next/BUILD_ID)`);
}

/**
 * `next start` on the seeded `dataDir`, and with --compare-dir the other checkout's `next start`
 * on a copy of it (PGlite is one process per directory: the same rows, taken before either opens it).
 */
export async function startNextWithReference(
  supervisor: Supervisor,
  dataDir: string,
  compareDir: string | undefined,
  copyName: string,
): Promise<{ app: RunningApi; reference: RunningApi | undefined; referenceDataDir: string | undefined }> {
  let referenceDataDir: string | undefined;
  if (compareDir) {
    referenceDataDir = supervisor.tempDir(copyName);
    cpSync(dataDir, referenceDataDir, { recursive: true });
  }
  const app = await startApi(supervisor, "next", { dataDir });
  const reference = compareDir ? await startApi(supervisor, "next", { dataDir: referenceDataDir, root: compareDir }) : undefined;
  return { app, reference, referenceDataDir };
}

/** The operator token the app wrote on first start (it exists once /api/health answers). */
export function readAdminToken(api: RunningApi): string {
  if (api.adminToken) return api.adminToken;
  return readFileSync(join(api.dataDir, "admin-token"), "utf8").trim();
}

/** The node:http baseline, serving `body` with the given content type for any request. */
export async function startBare(supervisor: Supervisor, body: Buffer, contentType: string, status = 200): Promise<RunningTarget> {
  const port = await freePort();
  const dir = supervisor.tempDir("bare");
  const bodyFile = join(dir, "body");
  writeFileSync(bodyFile, body);
  // Started through tsx like the standalone API, so both run under the same loader; tsx only
  // acts at module load, not per request.
  const child = supervisor.spawn({
    name: "bare",
    command: TSX,
    args: ["scripts/bench/bare-server.ts", "--port", String(port), "--body", bodyFile, "--content-type", contentType, "--status", String(status)],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 30_000);
  return { url, process: child };
}

/**
 * The minimal create handler of orders-create (scripts/bench/minimal-create-server.ts): the same
 * body validated by the same schema and written in one transaction, on a fresh embedded database
 * of its own (`postgresUrl` unset) or on that PostgreSQL. `quote` is stored with each order.
 */
export async function startMinimalCreate(supervisor: Supervisor, options: { quote: unknown; postgresUrl?: string }): Promise<RunningTarget> {
  const port = await freePort();
  const dir = supervisor.tempDir("minimal-create");
  const quoteFile = join(dir, "quote.json");
  writeFileSync(quoteFile, JSON.stringify(options.quote));
  // The URL goes by environment, so the report's command line carries no credentials.
  const database = options.postgresUrl ? ["--database-url-from-env"] : ["--data-dir", join(dir, "data")];
  const child = supervisor.spawn({
    name: "minimal-create",
    command: TSX,
    args: ["scripts/bench/minimal-create-server.ts", "--port", String(port), "--quote", quoteFile, ...database],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", BENCH_DATABASE_URL: options.postgresUrl ?? "" },
  });
  const url = `http://127.0.0.1:${port}`;
  // Migrations on a fresh PGlite directory take a while on two cores.
  await waitForOk(`${url}/`, child, 120_000);
  return { url, process: child };
}

/**
 * The Fastify peer of api-get-mission (scripts/bench/fastify-peer-server.ts) on `dataDir`, a copy
 * of a seeded (and stopped) API's data directory, or on the API's PostgreSQL database: the same
 * signing key and mission row.
 */
export async function startFastifyPeer(
  supervisor: Supervisor,
  options: { dataDir?: string; postgresUrl?: string; issuer: string; audience: string; contentType: string; caches?: boolean },
): Promise<RunningTarget> {
  // The URL goes by environment, so the report's command line carries no credentials.
  const database = options.postgresUrl ? ["--database-url-from-env"] : ["--data-dir", options.dataDir ?? ""];
  const port = await freePort();
  const child = supervisor.spawn({
    name: "fastify-peer",
    command: TSX,
    args: [
      "scripts/bench/fastify-peer-server.ts",
      "--port",
      String(port),
      ...database,
      "--issuer",
      options.issuer,
      "--audience",
      options.audience,
      "--content-type",
      options.contentType,
      // The service's limits under test: the peer counts every request against them too.
      "--per-minute",
      RATE_LIMIT_UNDER_TEST,
      "--per-hour",
      RATE_LIMIT_UNDER_TEST,
      ...(options.caches ? ["--caches"] : []),
    ],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", BENCH_DATABASE_URL: options.postgresUrl ?? "" },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 60_000);
  return { url, process: child };
}

/**
 * The fair peer of api-routes (scripts/bench/api-routes-peer-server.ts): Fastify over the same
 * runtime, caches and domain functions, on `dataDir` (a copy of the seeded data) with the
 * service's public origin (the tokens' issuer).
 */
export async function startRoutesPeer(supervisor: Supervisor, dataDir: string, origin: string): Promise<RunningTarget> {
  const port = await freePort();
  const child = supervisor.spawn({
    name: "routes-peer",
    command: TSX,
    args: ["scripts/bench/api-routes-peer-server.ts", "--port", String(port)],
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      DATABASE_URL: "",
      ADMIN_TOKEN: "",
      SECRETS_KEY: "",
      SECRETS_KEY_FILE: "",
      DEMO: "off",
      MAP_BASEMAP: "offline",
      // The service's limits under test: it counts every request against them, as the service does.
      RATE_LIMIT_PER_MINUTE: RATE_LIMIT_UNDER_TEST,
      RATE_LIMIT_PER_HOUR: RATE_LIMIT_UNDER_TEST,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 120_000);
  return { url, process: child };
}

/** The node:http baseline of api-routes (scripts/bench/bare-routes-server.ts): each route's captured bytes. */
export async function startBareRoutes(
  supervisor: Supervisor,
  routes: { method: string; path: string; reference: { contentType: string; body: Buffer } }[],
): Promise<RunningTarget> {
  const port = await freePort();
  const file = join(supervisor.tempDir("bare-routes"), "routes.json");
  writeFileSync(
    file,
    JSON.stringify(
      routes.map((r) => ({ method: r.method, path: r.path, contentType: r.reference.contentType, bodyBase64: r.reference.body.toString("base64") })),
    ),
  );
  const child = supervisor.spawn({
    name: "bare-routes",
    command: TSX,
    args: ["scripts/bench/bare-routes-server.ts", "--port", String(port), "--routes", file],
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/`, child, 30_000);
  return { url, process: child };
}
