// The process-wide service: database, keys, app and background work, built once from the
// environment. Kept on globalThis because Next may load this module more than once (route
// handlers and instrumentation are bundled separately), and PGlite must be opened only once.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { SecretBox } from "@/lib/auth/secret-box";
import { loadSecretBox } from "@/lib/runtime/secrets-key";
import { KeyStore } from "@/lib/service/keys/tokens";
import { ensureProvenanceCredentials } from "@/lib/service/provenance/provenance-credentials";
import { openDatabase, type Database } from "@/lib/db/client";
import { env, type Env } from "@/lib/env";
import { ensurePrivateDir, restrictTree } from "@/lib/fs/private-files";
import { log } from "@/lib/log";
import { tokenSettingsFor, type ServiceConfig, type ServiceContext } from "@/lib/service/context";
import type { StorageConfig } from "@/lib/service/storage/storage-config";
import { createServiceApp, type ServiceApp } from "@/lib/service/http/app";
import { createServiceListener, type ServiceListener } from "@/lib/service/http/listener";
import { createServiceMetrics } from "@/lib/service/metrics/service-metrics";
import { startBackgroundWork, type BackgroundOptions, type BackgroundWork } from "@/lib/service/worker/background";
import { parseWakePayload, WAKE_CHANNEL, type WorkQueue } from "@/lib/service/queue/wake-payload";
import { startFieldUploadSweeper } from "@/lib/service/field/sweep-field-uploads";
import { fieldUploadStore } from "@/lib/service/field/field-upload-store";
import { startTempUploadSweeper } from "@/lib/service/submissions/sweep-temp-uploads";
import { MissionCache } from "@/lib/service/missions/mission-cache";
import { CredentialCache } from "@/lib/service/credentials/credential-cache";
import { createRateLimiter } from "@/lib/service/rate-limit/limiter";
import { TrafficMeter } from "@/lib/service/traffic-meter";
import { TestCardProcessor } from "@/lib/service/payments/test-card-processor";
import { getOrCreateSecret, resealStoredSecrets } from "@/lib/service/secrets";
import { LocalObjectStore } from "@/lib/service/storage/local-store";
import type { ObjectStore } from "@/lib/service/storage/object-store";
import { S3ObjectStore } from "@/lib/service/storage/s3-store";
import { DEFAULT_POINTS_CACHE_CHARS, PointsCache } from "@/lib/service/submissions/points-cache";
import type { Analyser } from "@/lib/service/verification/checks";
import { HttpAnalyser } from "@/lib/service/verification/http-analyser";
import { LocalAnalyser } from "@/lib/service/verification/local-analyser";
import { OcrAnalyser } from "@/lib/service/verification/ocr-analyser";
import { ObjectDetector, peopleFinder } from "@/lib/service/verification/vision/object-detector";
import { VisionAnalyser } from "@/lib/service/verification/vision/vision-analyser";

export interface ServiceRuntime {
  ctx: ServiceContext;
  app: ServiceApp;
  /** The service on a Node server: its direct reads, then the app (lib/service/http/listener.ts). */
  listener: ServiceListener;
  database: Database;
  background?: BackgroundWork;
  stop(): Promise<void>;
}

export const TOKEN_TTL_SECONDS = 86_400;

/** ADMIN_TOKEN from the environment, or (embedded default) one generated on first start. */
export function resolveAdminToken(e: Env): { token: string; file?: string } {
  if (e.ADMIN_TOKEN) return { token: e.ADMIN_TOKEN };
  const dataDir = resolve(e.DATA_DIR);
  const file = resolve(dataDir, "admin-token");
  if (existsSync(file)) return { token: readFileSync(file, "utf8").trim(), file };
  ensurePrivateDir(dataDir);
  const token = `adm_${randomBytes(32).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file };
}

export function storageFromEnv(e: Env): StorageConfig {
  if (e.STORAGE === "local" || !e.S3_BUCKET) return { kind: "local" };
  return {
    kind: "s3",
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
  };
}

/** The photo store the configuration names. */
export function createObjectStore(config: ServiceConfig): ObjectStore {
  const storage = config.storage ?? { kind: "local" };
  if (storage.kind === "s3") return new S3ObjectStore(storage);
  return new LocalObjectStore(resolve(config.dataDir, "photos"));
}

export function configFromEnv(e: Env, adminToken: string): ServiceConfig {
  return {
    publicOrigin: e.PUBLIC_ORIGIN,
    ...(e.API_SUPPORT_URL ? { supportUrl: e.API_SUPPORT_URL } : {}),
    adminToken,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    rateLimit: {
      perMinute: e.RATE_LIMIT_PER_MINUTE,
      perHour: e.RATE_LIMIT_PER_HOUR,
      tokenPerMinute: e.TOKEN_RATE_LIMIT_PER_MINUTE,
      tokenPerMinutePerIp: e.TOKEN_RATE_LIMIT_PER_MINUTE * 5,
    },
    dashboardRateLimit: { perMinute: e.DASHBOARD_RATE_LIMIT_PER_MINUTE, perHour: e.DASHBOARD_RATE_LIMIT_PER_HOUR },
    maxBodyBytes: e.MAX_BODY_BYTES,
    trustProxy: e.TRUST_PROXY,
    dataDir: resolve(e.DATA_DIR),
    storage: storageFromEnv(e),
    metricsToken: e.METRICS_TOKEN,
    uploads: {
      maxFileBytes: e.MAX_UPLOAD_BYTES,
      maxPhotos: e.MAX_PHOTOS_PER_SUBMISSION,
      maxPixels: e.MAX_IMAGE_PIXELS,
      maxOpenUploads: e.MAX_OPEN_UPLOADS_PER_ZOOMER,
      maxOpenUploadBytes: e.MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER,
    },
    // The documents are ASCII: a character is a byte.
    pointsCacheChars: e.POINTS_CACHE_MB * 1024 * 1024,
    cdnUrlTtlSeconds: e.CDN_URL_TTL_SECONDS,
    cdnUrl: e.CDN_URL,
    blurFaces: e.BLUR_FACES === "on",
    fulfilment: {
      weatherUrl: e.WEATHER_URL === "off" ? null : e.WEATHER_URL,
      analyserUrl: e.ANALYSER_URL ?? null,
      localAnalyser: e.LOCAL_ANALYSER === "off" ? null : e.LOCAL_ANALYSER,
    },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryScale: e.WEBHOOK_RETRY_SCALE,
      secretGraceSeconds: e.WEBHOOK_SECRET_GRACE_SECONDS,
    },
  };
}

/** The analyser of order photos: the configured service, else the local vision model and OCR as enabled, else none. */
function createAnalyser(fulfilment: ServiceConfig["fulfilment"], detector: () => ObjectDetector): Analyser | null {
  if (fulfilment?.analyserUrl) return new HttpAnalyser({ url: fulfilment.analyserUrl });
  switch (fulfilment?.localAnalyser) {
    case "local":
      return new LocalAnalyser([new VisionAnalyser({ detector: detector() }), new OcrAnalyser()]);
    case "vision":
      return new VisionAnalyser({ detector: detector() });
    case "ocr":
      return new OcrAnalyser();
    default:
      return null;
  }
}

/**
 * DATA_DIR (database files, photos, operator token, key file) owner-only: 0700 directories and
 * 0600 files, whatever the umask and whatever an older version left; refused with a message when
 * it belongs to someone else.
 */
export function prepareDataDir(dataDir: string): void {
  const dir = resolve(dataDir);
  ensurePrivateDir(dir);
  const changed = restrictTree(dir);
  if (changed > 0) log.warn("data directory made owner-only (0700 directories, 0600 files)", { data_dir: dir, entries_changed: changed });
}

export async function createRuntime(options: {
  database: Database;
  config: ServiceConfig;
  /** Seals secrets at rest; from SECRETS_KEY or the key file in production (loadSecretBox). */
  secretBox: SecretBox;
  runWorker?: boolean;
  workerOptions?: BackgroundOptions;
  /** Use this store instead of the one config.storage names (tests of failing stores). */
  store?: ObjectStore;
}): Promise<ServiceRuntime> {
  const { database, config, secretBox } = options;
  // Plaintext from before sealing existed, or values of a rotated-out key: sealed with the current key.
  const resealed = await resealStoredSecrets(database.db, secretBox);
  if (resealed > 0) log.info("stored secrets sealed with the current key", { values: resealed, key_id: secretBox.keyId });
  const keys = new KeyStore(database.db, tokenSettingsFor(config.publicOrigin, config.tokenTtlSeconds), secretBox);
  await keys.init();
  await ensureProvenanceCredentials({ db: database.db, box: secretBox });
  const store = options.store ?? createObjectStore(config);
  const cdnSecret = await getOrCreateSecret(database.db, secretBox, "cdn-url-signing");
  const limiter = createRateLimiter(database.db, database.kind, { listen: database.listen });
  const missionCache = new MissionCache(database.kind === "pglite");
  const pointsCache = new PointsCache(config.pointsCacheChars ?? DEFAULT_POINTS_CACHE_CHARS);
  const payments = new TestCardProcessor();
  // One pool of vision workers for the analyser and the face blur.
  let detector: ObjectDetector | null = null;
  const sharedDetector = () => (detector ??= new ObjectDetector());
  const analyser = createAnalyser(config.fulfilment, sharedDetector);
  // The workers start on first use: blurred derivatives (config.blurFaces) or a privacy_blur delivery.
  const findPeople = peopleFinder(sharedDetector());
  const ctx: ServiceContext = {
    db: database.db,
    dbKind: database.kind,
    config,
    keys,
    store,
    fieldUploads: fieldUploadStore(config),
    limiter,
    missionCache,
    credentials: new CredentialCache(),
    pointsCache,
    payments,
    analyser,
    findPeople,
    cdnSecret,
    secretBox,
    traffic: new TrafficMeter(),
    wakeWorkers: () => {},
  };
  const metrics = createServiceMetrics(ctx.db);
  const app = createServiceApp(ctx, metrics);
  const listener = createServiceListener({ ctx, app, metrics });
  const background = options.runWorker ? startBackgroundWork(ctx, options.workerOptions) : undefined;
  const sweeper = startTempUploadSweeper(resolve(config.dataDir, "tmp"));
  // Resumable uploads: expired rows and any upload file without a live row, at start (a kill -9
  // leaves them) and then periodically, on every process (each may hold the upload directory).
  const fieldUploadSweeper = startFieldUploadSweeper(ctx);
  let unlisten: (() => Promise<void>) | undefined;
  if (background) {
    const wakeHere = (...queues: WorkQueue[]) => {
      if (queues.length === 0 || queues.includes("qa")) background.workers.qa.wake();
      if (queues.length === 0 || queues.includes("webhooks")) background.workers.webhooks.wake();
      if (queues.length === 0 || queues.includes("orders")) background.workers.orders.wake();
    };
    ctx.wakeWorkers = wakeHere;
    // Work committed by web instances (another process) wakes this one's workers at once, not at
    // their next poll.
    unlisten = await database.listen?.(WAKE_CHANNEL, (payload) => wakeHere(...parseWakePayload(payload)));
  } else if (database.listen) {
    // A web instance without workers on PostgreSQL: tell the worker processes.
    ctx.wakeWorkers = (...queues) => {
      database.db
        .execute(sql`select pg_notify(${WAKE_CHANNEL}, ${queues.join(",")})`)
        .catch((error: unknown) => log.warn("could not notify the workers", {}, error));
    };
  }
  return {
    ctx,
    app,
    listener,
    database,
    background,
    stop: async () => {
      sweeper.stop();
      await fieldUploadSweeper.stop();
      await unlisten?.();
      await background?.stop();
      await limiter.stop();
      await database.close();
      if (store instanceof S3ObjectStore) store.close();
      if (analyser instanceof OcrAnalyser || analyser instanceof LocalAnalyser) await analyser.close();
      await detector?.close();
    },
  };
}

/** The runtime as `npm start` builds it from a validated environment (getRuntime uses process.env's). */
export async function startRuntime(
  env: Env,
  overrides: { trustProxy?: boolean; runWorker?: boolean; onHeartbeatLost?: BackgroundOptions["onHeartbeatLost"] } = {},
): Promise<ServiceRuntime> {
  if (env.DATABASE_URL && !env.ADMIN_TOKEN) {
    throw new Error("ADMIN_TOKEN must be set when DATABASE_URL is: every instance must share the operator token.");
  }
  prepareDataDir(env.DATA_DIR);
  const admin = resolveAdminToken(env);
  const secrets = loadSecretBox(env);
  const database = await openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.DATA_DIR });
  const config = configFromEnv(env, admin.token);
  if (overrides.trustProxy !== undefined) config.trustProxy = overrides.trustProxy;
  const runWorker = overrides.runWorker ?? env.RUN_WORKER;
  const runtime = await createRuntime({ database, config, secretBox: secrets.box, runWorker, workerOptions: { onHeartbeatLost: overrides.onHeartbeatLost } });
  if (env.DEMO_ENABLED && runWorker) {
    const [{ startDemo }, { DEMO_USER }] = await Promise.all([import("@/lib/demo/start-demo"), import("@/lib/demo/demo-user")]);
    const demo = await startDemo(runtime, { intervalMs: env.DEMO_INTERVAL_MS, retentionHours: env.DEMO_RETENTION_HOURS });
    const stop = runtime.stop;
    runtime.stop = async () => {
      await demo.stop();
      await stop();
    };
    // The demo account's password is public (README); it is printed so a first start says how to sign in.
    log.info(`demo ${demo.fresh ? "seeded" : "resumed"}: sign in as ${DEMO_USER.email} / ${DEMO_USER.password}`);
  }
  log.info("service ready", {
    database: database.kind,
    storage: runtime.ctx.store.kind,
    worker: runWorker,
    data_dir: database.kind === "pglite" ? resolve(env.DATA_DIR) : undefined,
    api: `${config.publicOrigin}/api/v1`,
    docs: `${config.publicOrigin}/docs`,
    sealing_key_from: secrets.source,
    sealing_key_id: secrets.box.keyId,
  });
  if (admin.file) log.info("operator token written (owner-only); use `npm run admin`", { file: admin.file });
  return runtime;
}

const globalKey = Symbol.for("photo-missions.runtime");
type GlobalWithRuntime = typeof globalThis & { [globalKey]?: Promise<ServiceRuntime> };

/** The one runtime of this process, started on first use. */
export function getRuntime(overrides: { trustProxy?: boolean } = {}): Promise<ServiceRuntime> {
  const g = globalThis as GlobalWithRuntime;
  g[globalKey] ??= startRuntime(env, overrides).catch((error: unknown) => {
    delete g[globalKey];
    throw error;
  });
  return g[globalKey];
}
