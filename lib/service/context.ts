// What every part of the service is handed: the database, the settings and the signing keys.
// Built once per process from the environment (lib/runtime/runtime.ts) or by tests directly.
import type { Analyser } from "@/lib/service/verification/checks";
import type { FindPeople } from "@/lib/photos/blur-faces";
import type { Db, DatabaseKind } from "@/lib/db/client";
import type { SecretBox } from "@/lib/auth/secret-box";
import type { KeyStore } from "@/lib/service/keys/tokens";
import type { DashboardUser } from "@/lib/schemas/dashboard";
import type { CredentialCache } from "@/lib/service/credentials/credential-cache";
import type { MissionCache } from "@/lib/service/missions/mission-cache";
import type { PointsCache } from "@/lib/service/submissions/points-cache";
import type { RateLimiter } from "@/lib/service/rate-limit/limiter";
import type { PaymentProvider } from "@/lib/service/payments/payment-provider";
import type { ObjectStore } from "@/lib/service/storage/object-store";
import type { StorageConfig } from "@/lib/service/storage/storage-config";
import type { TrafficMeter } from "@/lib/service/traffic-meter";
import type { FieldUploadStore } from "@/lib/service/field/field-upload-store";

export interface ServiceConfig {
  /** Public origin, e.g. http://localhost:3000; URLs handed out are built from it. */
  publicOrigin: string;
  /** Where integrators get help (API_SUPPORT_URL: a page or mailto:); unset, the documents' contact has no link. */
  supportUrl?: string;
  adminToken: string;
  tokenTtlSeconds: number;
  rateLimit: { perMinute: number; perHour: number; tokenPerMinute: number; tokenPerMinutePerIp: number };
  /** Limits of dashboard tokens: all staff of an organisation share its one dashboard client. */
  dashboardRateLimit: { perMinute: number; perHour: number };
  maxBodyBytes: number;
  /** Take the client address from X-Forwarded-For (behind Next or a proxy we trust). */
  trustProxy: boolean;
  /** Photos live under dataDir/photos (local store); uploads stream to dataDir/tmp first. */
  dataDir: string;
  /** Bearer token Prometheus sends to /api/metrics; absent: metrics are not served. */
  metricsToken?: string;
  /** Where photos are kept; absent means local disk. */
  storage?: StorageConfig;
  /**
   * resumableTtlSeconds: how long an unfinished tus upload may wait before it is swept (default 48 h).
   * maxOpenUploads / maxOpenUploadBytes: per zoomer, how many unfinished tus uploads may be open and
   * how many bytes (sum of Upload-Length) they may reserve (defaults 20 and 250 MiB; lib/service/field/open-upload-caps.ts).
   */
  uploads: { maxFileBytes: number; maxPhotos: number; maxPixels: number; resumableTtlSeconds?: number; maxOpenUploads?: number; maxOpenUploadBytes?: number };
  /** Most text the map's points documents keep in memory (POINTS_CACHE_MB); absent: the default, 256 MB. */
  pointsCacheChars?: number;
  /** How long signed CDN URLs handed out by the API stay valid. */
  cdnUrlTtlSeconds: number;
  /** Base of the photo URLs handed out (CDN_URL); absent: publicOrigin + /cdn, served by this app. */
  cdnUrl?: string;
  /**
   * Order fulfilment: where weather and photo analysis come from (absent: neither, as in tests).
   * An analysis service (analyserUrl) takes every analysis check; without one, `localAnalyser`
   * judges the photo itself: "vision" finds obstructions and counts people
   * (lib/service/verification/vision/), "ocr" reads brands (…/ocr-analyser.ts), "local" both.
   */
  /** Faces blurred in the previews and thumbnails people are shown (BLUR_FACES; absent: not, as in tests). */
  blurFaces?: boolean;
  fulfilment?: { weatherUrl: string | null; analyserUrl: string | null; localAnalyser?: "local" | "vision" | "ocr" | null };
  webhooks: {
    timeoutMs: number;
    /** Allow loopback/private targets (local development and tests only). */
    allowPrivateTargets: boolean;
    /** Multiplies the retry schedule (tests shorten it). */
    retryScale: number;
    /** How long a rotated-out secret keeps signing alongside the new one. */
    secretGraceSeconds: number;
  };
}

export interface ServiceContext {
  db: Db;
  dbKind: DatabaseKind;
  config: ServiceConfig;
  keys: KeyStore;
  store: ObjectStore;
  /** Where unfinished resumable (tus) uploads are kept: made once, with the context. */
  fieldUploads: FieldUploadStore;
  limiter: RateLimiter;
  missionCache: MissionCache;
  /** API keys and organisations' plans verified in the last few seconds (lib/service/credentials/credential-cache.ts). */
  credentials: CredentialCache;
  /** The map's points documents built last, by mission, filters and version. */
  pointsCache: PointsCache;
  /** Charges and refunds orders: the test-mode card processor unless a real one is configured. */
  payments: PaymentProvider;
  /** Judges obstruction, crowd and brand in order photos (config.fulfilment); null: not evaluated. */
  analyser: Analyser | null;
  /** Finds people, for blurring faces: in previews and thumbnails when config.blurFaces, in deliveries of privacy_blur organisations. */
  findPeople?: FindPeople;
  /** Key for signing CDN URLs (HMAC-SHA256), shared by all instances through the database. */
  cdnSecret: string;
  /**
   * Seals secrets the service must read back before they are stored, and opens them after they
   * are read (lib/auth/secret-box.ts): `secretBox.seal(plaintext)` → stored text,
   * `secretBox.open(stored)` → plaintext (legacy plaintext passes through).
   */
  secretBox: SecretBox;
  /** Network requests being served (the demo yields to them). */
  traffic: TrafficMeter;
  /** Tells this process's workers (all, or those named) that work was just committed; no-op without workers. */
  wakeWorkers: (...queues: ("qa" | "webhooks" | "orders")[]) => void;
  /**
   * Told after a dashboard user signed in with a password (the demo tops up its missions and starts
   * a burst for its visitors); the sign-in waits for what it returns, briefly. Unset by default.
   */
  onDashboardSignIn?: (user: DashboardUser) => Promise<void> | undefined;
}

export const API_BASE_PATH = "/api/v1";
export const ADMIN_BASE_PATH = "/api/admin/v1";
export const ORDERS_BASE_PATH = "/api/orders/v1";
export const CDN_BASE_PATH = "/cdn";

/** Where the signed photo URLs handed out point: CDN_URL, or this app's own /cdn. */
export function cdnBaseUrl(config: Pick<ServiceConfig, "cdnUrl" | "publicOrigin">): string {
  return config.cdnUrl ?? `${config.publicOrigin}${CDN_BASE_PATH}`;
}

export function tokenSettingsFor(publicOrigin: string, ttlSeconds: number) {
  return { issuer: publicOrigin, audience: `${publicOrigin}${API_BASE_PATH}`, ttlSeconds };
}
