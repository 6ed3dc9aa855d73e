// The database schema of the whole product. Ids are the public prefixed ids (lib/ids), so a row
// can be named in logs and support requests without a lookup. Timestamps are timestamptz.
import { sql } from "drizzle-orm";
import { DELIVERY_STATUSES as PROMISE_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES, type OrderStatus, type PaymentStatus } from "../orders/vocabulary";
import { MISSION_STATUSES, ROLES, SUBMISSION_STATUSES } from "../schemas/statuses";
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

// The columns' states, kept where the API's schemas read them without the database.
export { MISSION_STATUSES, ROLES, SUBMISSION_STATUSES, type MissionStatus, type Role, type SubmissionStatus } from "../schemas/statuses";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const PLANS = ["developer", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/**
 * How a webhook signing secret keys Standard Webhooks' `webhook-signature`: `standard` with the
 * base64-decoded bytes after `whsec_` (every secret made or rotated since), `legacy` with the
 * secret's characters (secrets made before; kept until rotated). lib/service/webhooks/signing-secret.ts.
 */
export const SECRET_FORMATS = ["legacy", "standard"] as const;
export type SecretFormat = (typeof SECRET_FORMATS)[number];
/** Rows from before the format was stored are legacy; every write of a secret sets its format. */
const secretFormat = (name: string) => text(name, { enum: SECRET_FORMATS }).notNull().default("legacy");

export const organisations = pgTable("organisations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: PLANS }).notNull().default("developer"),
  /** The payment method `payment_method: "card"` charges (a test-mode method by default). */
  cardOnFile: text("card_on_file").notNull().default("pm_card_visa"),
  /** Signs deliveries to orders' `delivery.webhook_url`; shown once when created or rotated. */
  orderDeliverySecret: text("order_delivery_secret"),
  orderDeliverySecretFormat: secretFormat("order_delivery_secret_format"),
  orderDeliverySecretCreatedAt: ts("order_delivery_secret_created_at"),
  previousOrderDeliverySecret: text("previous_order_delivery_secret"),
  previousOrderDeliverySecretFormat: secretFormat("previous_order_delivery_secret_format"),
  previousOrderDeliverySecretExpiresAt: ts("previous_order_delivery_secret_expires_at"),
  /** Deliveries carry copies with faces blurred (EXIF copied); the originals stay stored for the operator. */
  privacyBlur: boolean("privacy_blur").notNull().default(false),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    /** The language the user chose for the dashboard (a catalogue of lib/i18n/locales.ts); null: the browser's. */
    locale: text("locale"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);

/** A user belongs to one or more organisations (account managers to several), with a role in each. */
export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.orgId] })],
);

/** Field contributors. Their credentials are api_clients of kind "zoomer". */
export const zoomers = pgTable("zoomers", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const CLIENT_KINDS = ["partner", "zoomer", "dashboard"] as const;

/** OAuth 2.0 confidential clients. Secrets are random 256-bit values stored as SHA-256 digests. */
export const apiClients = pgTable(
  "api_clients",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: CLIENT_KINDS }).notNull(),
    orgId: text("org_id").references(() => organisations.id, { onDelete: "cascade" }),
    zoomerId: text("zoomer_id").references(() => zoomers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    index("api_clients_org_idx").on(t.orgId),
    // One active dashboard client per organisation: lets concurrent first sign-ins create it
    // without a race (insert … on conflict do nothing, then read it back).
    uniqueIndex("api_clients_dashboard_org_unique")
      .on(t.orgId)
      .where(sql`${t.kind} = 'dashboard' and ${t.revokedAt} is null`),
  ],
);

/** Order-interface API keys: shown once, stored hashed, looked up by digest. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    /** read_only keys may call the order interface's GET routes only. */
    access: text("access", { enum: ["read_write", "read_only"] })
      .notNull()
      .default("read_write"),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_org_idx").on(t.orgId)],
);

/** Token signing keys, shared by every instance through the database and published as a JWKS. */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  alg: text("alg").notNull(),
  publicJwk: jsonb("public_jwk").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  createdAt: createdAt(),
  /**
   * Set by the rotation command: the key never signs again but stays in the JWKS, so the evidence
   * and tokens it signed keep verifying (lib/service/keys/tokens.ts says for how long).
   */
  retiredAt: ts("retired_at"),
});

/**
 * The C2PA signing credentials (lib/service/provenance/provenance-credentials.ts): the service's own
 * root (`root`, self-signed) and the claim-signing certificates it issues (`claim`, Ed25519,
 * c2pa-kp-claimSigning, at most 366 days). Private keys sealed like the token keys; a renewed
 * claim certificate retires the previous one.
 */
export const provenanceCertificates = pgTable("provenance_certificates", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["root", "claim"] }).notNull(),
  certificatePem: text("certificate_pem").notNull(),
  privateKey: text("private_key").notNull(),
  notBefore: ts("not_before").notNull(),
  notAfter: ts("not_after").notNull(),
  createdAt: createdAt(),
  retiredAt: ts("retired_at"),
});

/** Fixed-window request counters (per organisation or zoomer client, per window), shared by all instances. */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    windowSeconds: integer("window_seconds").notNull(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowSeconds, t.windowStart] }), index("rate_limit_counters_start_idx").on(t.windowStart)],
);

export const missions = pgTable(
  "missions",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: MISSION_STATUSES }).notNull().default("active"),
    bounds: jsonb("bounds").notNull(),
    // The bounds' bounding box, kept in columns so bbox filters use an index, not JSON.
    minLng: doublePrecision("min_lng").notNull(),
    minLat: doublePrecision("min_lat").notNull(),
    maxLng: doublePrecision("max_lng").notNull(),
    maxLat: doublePrecision("max_lat").notNull(),
    areaM2: doublePrecision("area_m2").notNull(),
    requiredImages: integer("required_images").notNull(),
    submissionCount: integer("submission_count").notNull().default(0),
    approvedImageCount: integer("approved_image_count").notNull().default(0),
    qaSettings: jsonb("qa_settings").notNull().default({}),
    orderId: text("order_id"),
    /** The order's client_reference when it was dispatched (set once: an order's reference never changes), for lists that name the order. */
    orderReference: text("order_reference"),
    locationId: text("location_id"),
    /** The recurring order's cycle this mission was dispatched for (0 for a one-off order). */
    cycleIndex: integer("cycle_index"),
    /** When the photos are due: the plan's delivery promise, or the end of the cycle's window. */
    deadlineAt: ts("deadline_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
    cancelledAt: ts("cancelled_at"),
  },
  (t) => [
    index("missions_org_status_created_idx").on(t.orgId, t.status, t.createdAt),
    index("missions_bbox_idx").on(t.minLng, t.maxLng, t.minLat, t.maxLat),
    index("missions_order_idx").on(t.orderId),
  ],
);

export const submissions = pgTable(
  "submissions",
  {
    id: text("id").primaryKey(),
    missionId: text("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    zoomerId: text("zoomer_id")
      .notNull()
      .references(() => zoomers.id),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull().default("received"),
    angle: text("angle"),
    note: text("note"),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    altitudeM: doublePrecision("altitude_m"),
    accuracyM: doublePrecision("accuracy_m"),
    capturedAt: ts("captured_at"),
    imageCount: integer("image_count").notNull(),
    qa: jsonb("qa"),
    reasons: jsonb("reasons"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    decidedAt: ts("decided_at"),
    /**
     * Exactly once for resumable uploads: SHA-256 over zoomer, target and the photo's SHA-256.
     * A photo resumed, retried or uploaded again finds the submission it already made.
     */
    intakeKey: text("intake_key"),
    // Device evidence: what the phone itself reported with the photo (browser geolocation,
    // compass, clock), kept beside the EXIF position, and what they measure against each other.
    deviceLat: doublePrecision("device_lat"),
    deviceLng: doublePrecision("device_lng"),
    deviceAccuracyM: doublePrecision("device_accuracy_m"),
    deviceCapturedAt: ts("device_captured_at"),
    deviceHeadingDeg: doublePrecision("device_heading_deg"),
    /** Metres between the device's position and the photo's EXIF GPS; null when either is missing. */
    deviceExifDistanceM: doublePrecision("device_exif_distance_m"),
    /** Seconds from capture (EXIF time, else the device's) to receipt; null without a capture time. */
    captureToUploadS: doublePrecision("capture_to_upload_s"),
  },
  (t) => [
    index("submissions_mission_created_idx").on(t.missionId, t.createdAt),
    index("submissions_org_idx").on(t.orgId),
    uniqueIndex("submissions_intake_key_idx").on(t.intakeKey),
  ],
);

/**
 * A resumable (tus) upload of one field photo: who sends it, for which target, with which device
 * evidence. Its bytes live in the tus store until the upload completes; then the submission is
 * recorded and this row keeps its id, so a retried final PATCH or a HEAD still answers it.
 */
export const fieldUploads = pgTable(
  "field_uploads",
  {
    id: text("id").primaryKey(),
    zoomerId: text("zoomer_id")
      .notNull()
      .references(() => zoomers.id, { onDelete: "cascade" }),
    missionId: text("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    assignmentId: text("assignment_id"),
    /** Upload-Metadata as validated (target, angle, filename, device evidence). */
    metadata: jsonb("metadata").notNull(),
    uploadLength: bigint("upload_length", { mode: "number" }).notNull(),
    submissionId: text("submission_id").references(() => submissions.id, { onDelete: "cascade" }),
    /** Why the finished photo was refused (the problem the final PATCH answered), so a retry hears it again. */
    refusal: jsonb("refusal"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    completedAt: ts("completed_at"),
  },
  (t) => [index("field_uploads_expires_idx").on(t.expiresAt), index("field_uploads_zoomer_idx").on(t.zoomerId)],
);

export const images = pgTable(
  "images",
  {
    id: text("id").primaryKey(),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    missionId: text("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    storageKey: text("storage_key").notNull(),
    thumbnailKey: text("thumbnail_key"),
    previewKey: text("preview_key"),
    /** The copy with faces blurred that deliveries of a privacy_blur organisation carry; made at delivery. */
    blurredKey: text("blurred_key"),
    /** The C2PA-signed copy made at delivery (lib/service/provenance): the original's bytes plus a signed manifest; the original is never altered. */
    c2paKey: text("c2pa_key"),
    originalName: text("original_name"),
    contentType: text("content_type").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    width: integer("width"),
    height: integer("height"),
    exif: jsonb("exif"),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    altitudeM: doublePrecision("altitude_m"),
    accuracyM: doublePrecision("accuracy_m"),
    capturedAt: ts("captured_at"),
    deviceMake: text("device_make"),
    deviceModel: text("device_model"),
    orientation: integer("orientation"),
    directionDeg: doublePrecision("direction_deg"),
    perceptualHash: text("perceptual_hash"),
    qa: jsonb("qa"),
    createdAt: createdAt(),
  },
  (t) => [index("images_submission_idx").on(t.submissionId), index("images_mission_idx").on(t.missionId), index("images_org_sha_idx").on(t.orgId, t.sha256)],
);

/** The outbox: written in the same transaction as the change that caused the event, with its deliveries. */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("events_org_created_idx").on(t.orgId, t.createdAt)],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    secretFormat: secretFormat("secret_format"),
    previousSecret: text("previous_secret"),
    previousSecretFormat: secretFormat("previous_secret_format"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    enabled: boolean("enabled").notNull().default(true),
    /**
     * Set on the hidden endpoint that carries one order's events to its `delivery.webhook_url`; it
     * is signed with the organisation's order-delivery secret and never listed under /webhooks.
     */
    orderId: text("order_id"),
    disabledReason: text("disabled_reason"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    failingSince: ts("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.orgId), uniqueIndex("webhook_endpoints_order_unique").on(t.orderId)],
);

export const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"] as const;

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    // The exact bytes sent: fixed at enqueue time so every attempt carries the same body.
    payload: text("payload").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lockedUntil: ts("locked_until"),
    lastStatusCode: integer("last_status_code"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_unique").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: ts("started_at").notNull(),
    durationMs: integer("duration_ms"),
    statusCode: integer("status_code"),
    responseSnippet: text("response_snippet"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** Durable background jobs, claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    runAt: ts("run_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedUntil: ts("locked_until"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("jobs_due_idx").on(t.queue, t.status, t.runAt)],
);

export { ORDER_STATUSES, type OrderStatus };

export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    clientReference: text("client_reference"),
    category: text("category").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending_confirmation"),
    /** Why a recurring order is paused (by the partner, a failed cycle payment). */
    statusReason: text("status_reason"),
    requirements: jsonb("requirements").notNull().default({}),
    recurring: jsonb("recurring"),
    delivery: jsonb("delivery").notNull().default({}),
    /** The quote the order was created with; the price it is charged at. */
    quote: jsonb("quote").notNull(),
    currency: text("currency").notNull().default("EUR"),
    paymentMethod: text("payment_method"),
    /** Recurring: the next cycle the scheduler dispatches. */
    nextCycleIndex: integer("next_cycle_index").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    confirmedAt: ts("confirmed_at"),
    cancelledAt: ts("cancelled_at"),
    fulfilledAt: ts("fulfilled_at"),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    index("orders_org_created_idx").on(t.orgId, t.createdAt),
    index("orders_org_reference_idx").on(t.orgId, t.clientReference),
    index("orders_status_expires_idx").on(t.status, t.expiresAt),
  ],
);

/** The order's locations; `id` is the caller's `loc_` id (unique within the order) or ours. */
export const orderLocations = pgTable(
  "order_locations",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    timeZone: text("time_zone").notNull(),
    /** Order-wide requirements merged with the location's own. */
    requirements: jsonb("requirements").notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.id] })],
);

export const CYCLE_STATUSES = ["dispatched", "skipped"] as const;

/** One row per dispatched or skipped cycle: the unique key is what stops a cycle being dispatched twice. */
export const orderCycles = pgTable(
  "order_cycles",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    status: text("status", { enum: CYCLE_STATUSES }).notNull(),
    localDate: text("local_date").notNull(),
    startsAt: ts("starts_at").notNull(),
    endsAt: ts("ends_at").notNull(),
    /** Photos this cycle asks for (counted against the plan's monthly quota when dispatched). */
    photos: integer("photos").notNull(),
    skipReason: text("skip_reason"),
    /** When every location of the cycle was delivered or given up. */
    completedAt: ts("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.index] }), index("order_cycles_org_created_idx").on(t.orgId, t.createdAt)],
);

/**
 * The delivery promise of one dispatched location of one cycle (0 for a one-off order): its
 * `deliver_by`, fixed at dispatch from the promise the order's quote stated before payment and
 * never recomputed, when its task should have been taken, and where it stands. The sweep
 * (lib/service/orders/sweep-delivery-promises.ts) moves it to at_risk and late, delivery to
 * delivered_on_time or delivered_late; `at_risk_at` and `late_at` are set once, with the event.
 */
export const deliveryPromises = pgTable(
  "delivery_promises",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    locationId: text("location_id").notNull(),
    cycleIndex: integer("cycle_index").notNull(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    missionId: text("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    /** When the task opened: its dispatch, or its cycle's window start when later. */
    opensAt: ts("opens_at").notNull(),
    /** A task still untaken after this is escalated and the location is at risk. */
    expectedTakeBy: ts("expected_take_by").notNull(),
    deliverBy: ts("deliver_by").notNull(),
    status: text("status", { enum: PROMISE_STATUSES }).notNull().default("on_track"),
    escalatedAt: ts("escalated_at"),
    atRiskAt: ts("at_risk_at"),
    lateAt: ts("late_at"),
    deliveredAt: ts("delivered_at"),
    /** No longer open: given up, cancelled with its order, or cancelled by the partner. */
    closedAt: ts("closed_at"),
    /** The partner cancelled the location free of charge (late, or delivered late). */
    cancelledAt: ts("cancelled_at"),
    refundedCents: integer("refunded_cents"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.locationId, t.cycleIndex] }),
    uniqueIndex("delivery_promises_mission_unique").on(t.missionId),
    index("delivery_promises_open_idx").on(t.status, t.deliverBy),
    index("delivery_promises_org_delivered_idx").on(t.orgId, t.deliveredAt),
  ],
);

export const PAYMENT_KINDS = ["charge", "refund"] as const;
export { PAYMENT_STATUSES, type PaymentStatus };

/** Every charge and refund, with its amount: what an order was charged and refunded is summed from here. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PAYMENT_KINDS }).notNull(),
    /** The cycle a charge pays for (0 for a one-off order). */
    cycleIndex: integer("cycle_index"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    paymentMethod: text("payment_method").notNull(),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** The charge a refund returns money from. */
    refundOf: text("refund_of"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("payments_order_idx").on(t.orderId, t.createdAt)],
);

export const ASSIGNMENT_STATUSES = ["open", "reserved", "submitted", "held_for_review", "verified", "failed", "given_up", "cancelled"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/**
 * Field work of an order: one row per dispatched mission × angle and attempt (0, then a retake
 * per failed verification, up to 3). A zoomer takes (reserves) it for a while, submits one photo,
 * and the photo's verification decides: verified (delivered with its location's set), failed
 * (a retake is opened with the failed checks as instructions), or held_for_review (the
 * authenticity check failed: an account manager approves it — verified — or rejects it — failed).
 */
export const assignments = pgTable(
  "assignments",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    missionId: text("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    locationId: text("location_id").notNull(),
    cycleIndex: integer("cycle_index").notNull(),
    angle: text("angle").notNull(),
    attempt: integer("attempt").notNull().default(0),
    status: text("status", { enum: ASSIGNMENT_STATUSES }).notNull().default("open"),
    zoomerId: text("zoomer_id").references(() => zoomers.id),
    reservedUntil: ts("reserved_until"),
    /** The location's target and window, copied so the field list needs no join to the order. */
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    timeZone: text("time_zone").notNull(),
    windowStart: ts("window_start"),
    windowEnd: ts("window_end"),
    deadlineAt: ts("deadline_at").notNull(),
    /** Set once the deadline passed before the work was done: re-offered, and the partner sees it. */
    late: boolean("late").notNull().default(false),
    /**
     * When the task, left untaken past its location's expected take time, was escalated: listed
     * first and to zoomers farther away (lib/service/orders/sweep-delivery-promises.ts).
     */
    escalatedAt: ts("escalated_at"),
    /** What to do differently: the failed checks of the previous attempt. */
    instructions: jsonb("instructions").notNull().default([]),
    /** `instructions` as codes and figures (lib/verification/place-checks.ts Localisable), for a page in the zoomer's language; null on rows made before they were kept. */
    instructionCodes: jsonb("instruction_codes"),
    submissionId: text("submission_id"),
    imageId: text("image_id"),
    verification: jsonb("verification"),
    weather: jsonb("weather"),
    deliveredAt: ts("delivered_at"),
    /**
     * The signed verification record (compact JWS) made at delivery, kept as it was made: the photo
     * record, the evidence route and the order's ZIP all answer these exact bytes, whatever key
     * signs today (lib/service/orders/photo-evidence.ts).
     */
    evidenceJws: text("evidence_jws"),
    /** The partner asked for this delivered photo to be taken again (the reason is the retake's instruction). */
    retakeRequestedAt: ts("retake_requested_at"),
    /** When verification held the photo for review (its authenticity check failed). */
    heldAt: ts("held_at"),
    /** A person's decision on a held photo, who made it and when. */
    reviewDecision: text("review_decision", { enum: ["approved", "rejected"] }),
    reviewedBy: text("reviewed_by"),
    reviewedAt: ts("reviewed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    index("assignments_status_idx").on(t.status, t.lat, t.lng),
    index("assignments_org_held_idx").on(t.orgId, t.heldAt),
    index("assignments_mission_idx").on(t.missionId),
    index("assignments_order_idx").on(t.orderId, t.createdAt),
    uniqueIndex("assignments_submission_unique").on(t.submissionId),
  ],
);

/**
 * A partly filled create-order body, saved by the dashboard's order wizard so that back, refresh,
 * a deep link and a second tab are safe. `version` increases on every save (If-Match guards it).
 */
export const orderDrafts = pgTable(
  "order_drafts",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    body: jsonb("body").notNull(),
    step: text("step"),
    version: integer("version").notNull().default(1),
    orderId: text("order_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("order_drafts_org_updated_idx").on(t.orgId, t.updatedAt)],
);

/** The operator's price list: one row, changed through the operator interface. */
export const priceLists = pgTable("price_lists", {
  id: text("id").primaryKey(),
  prices: jsonb("prices").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Requests sent with an Idempotency-Key, per organisation: `running` while the first is being
 * handled (a duplicate then gets 409), then its response, replayed to a retry for 24 hours.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: text("status", { enum: ["running", "done"] })
      .notNull()
      .default("running"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers"),
    lockedUntil: ts("locked_until"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/** Service-wide secrets shared by every instance (e.g. the CDN URL signing key), created once. */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});
