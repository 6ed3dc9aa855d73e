// The client: one object per credential, with the mission interface (missions, submissions,
// images, webhooks, field work for zoomers) and the order interface (orders, delivered photos).
import { ApiKey, ClientCredentials, type Authenticator } from "./auth.js";
import { downloadFrom, type Download } from "./download.js";
import { paginate } from "./paging.js";
import { Transport, type Query, type RetryOptions } from "./transport.js";
import { missionBody, type BodyOf, type CreateMissionInput, type Page, type QueryOf, type ResultOf, type UpdateMissionInput } from "./types.js";
import { SDK_VERSION } from "./version.js";

const V1 = "/api/v1";
const ORDERS = "/api/orders/v1";

export interface PhotoMissionsOptions {
  /** The deployment's origin, e.g. `https://photo-missions.example` or `http://localhost:3000`. */
  baseUrl: string;
  /** OAuth client credentials (partner or zoomer). */
  clientId?: string;
  clientSecret?: string;
  /** Space-separated scopes to ask for; omitted means all the client holds. */
  scope?: string;
  /** Token endpoint; omitted means discovered from /.well-known/oauth-authorization-server. */
  tokenUrl?: string;
  /** An organisation API key (`pm_live_…`) instead of client credentials: the order interface only. */
  apiKey?: string;
  retry?: RetryOptions;
  /** A fetch to use instead of the global one (proxies, instrumentation). */
  fetch?: typeof fetch;
}

/** A photo to upload: bytes with an optional file name (the API decides the type from the bytes). */
export type PhotoUpload = Blob | Uint8Array | { data: Blob | Uint8Array; filename?: string };

export interface RequestExtras {
  /** Idempotency-Key for this POST (default: a fresh UUID, reused by the SDK's own retries). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

function photoForm(photos: readonly PhotoUpload[], fields: Record<string, string | undefined>): FormData {
  const form = new FormData();
  photos.forEach((photo, index) => {
    const { data, filename } = photo instanceof Blob || photo instanceof Uint8Array ? { data: photo, filename: undefined } : photo;
    const blob = data instanceof Blob ? data : new Blob([new Uint8Array(data)], { type: "image/jpeg" });
    form.append("photos", blob, filename ?? `photo-${index + 1}.jpg`);
  });
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}

const id = (value: string) => encodeURIComponent(value);

export class PhotoMissions {
  readonly missions: Missions;
  readonly submissions: Submissions;
  readonly images: Images;
  readonly webhooks: Webhooks;
  readonly field: Field;
  readonly orders: Orders;
  /** The OAuth token source (client credentials only): `await client.credentials?.token()`. */
  readonly credentials: ClientCredentials | null;
  private readonly transport: Transport;

  constructor(options: PhotoMissionsOptions) {
    const origin = options.baseUrl.replace(/\/+$/, "");
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    let auth: Authenticator;
    if (options.apiKey !== undefined) {
      if (options.clientId !== undefined) throw new TypeError("Give either apiKey or clientId/clientSecret, not both.");
      auth = new ApiKey(options.apiKey);
      this.credentials = null;
    } else if (options.clientId !== undefined && options.clientSecret !== undefined) {
      this.credentials = new ClientCredentials(
        origin,
        { clientId: options.clientId, clientSecret: options.clientSecret, scope: options.scope, tokenUrl: options.tokenUrl },
        fetchImpl,
      );
      auth = this.credentials;
    } else {
      throw new TypeError("Give clientId and clientSecret (OAuth client credentials) or apiKey.");
    }
    this.transport = new Transport(
      origin,
      auth,
      fetchImpl,
      { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 60_000, ...options.retry },
      `photo-missions-sdk-typescript/${SDK_VERSION}`,
    );
    this.missions = new Missions(this.transport);
    this.submissions = new Submissions(this.transport);
    this.images = new Images(this.transport);
    this.webhooks = new Webhooks(this.transport);
    this.field = new Field(this.transport);
    this.orders = new Orders(this.transport);
  }
}

class Resource {
  constructor(protected readonly http: Transport) {}
}

export class Missions extends Resource {
  // POST /missions – preview names (requiredImages) in, the REST mission out
  create(input: CreateMissionInput, extras: RequestExtras = {}): Promise<ResultOf<"createMission">> {
    return this.http.json({ method: "POST", path: `${V1}/missions`, json: missionBody(input), idempotencyKey: extras.idempotencyKey, signal: extras.signal });
  }
  get(missionId: string): Promise<ResultOf<"getMission">> {
    return this.http.json({ method: "GET", path: `${V1}/missions/${id(missionId)}` });
  }
  update(missionId: string, input: UpdateMissionInput): Promise<ResultOf<"updateMission">> {
    return this.http.json({ method: "PATCH", path: `${V1}/missions/${id(missionId)}`, json: missionBody(input) });
  }
  cancel(missionId: string, extras: RequestExtras = {}): Promise<ResultOf<"cancelMission">> {
    return this.http.json({ method: "POST", path: `${V1}/missions/${id(missionId)}/cancel`, idempotencyKey: extras.idempotencyKey });
  }
  /** One page (`page`, `per_page`, filters: status, q, bbox, created/updated since). */
  list(query: QueryOf<"listMissions"> = {}): Promise<ResultOf<"listMissions">> {
    return this.http.json({ method: "GET", path: `${V1}/missions`, query: query as Query });
  }
  /** Every mission matching the filters, across pages (`per_page` sets the page size, default 100). */
  iterate(query: Omit<QueryOf<"listMissions">, "page"> = {}) {
    return paginate((page, per_page) => this.list({ ...query, page, per_page }), query.per_page);
  }
  listSubmissions(missionId: string, query: QueryOf<"listMissionSubmissions"> = {}): Promise<Page<ResultOf<"listMissionSubmissions">["data"][number]>> {
    return this.http.json({ method: "GET", path: `${V1}/missions/${id(missionId)}/submissions`, query: query as Query });
  }
  /** Every submission of the mission, across pages. */
  iterateSubmissions(missionId: string, query: Omit<QueryOf<"listMissionSubmissions">, "page" | "format"> = {}) {
    return paginate((page, per_page) => this.listSubmissions(missionId, { ...query, page, per_page }), query.per_page);
  }
  /** The mission's ZIP (original images + metadata.json), streamed. */
  async export(missionId: string, signal?: AbortSignal): Promise<Download> {
    return downloadFrom(
      await this.http.send({ method: "GET", path: `${V1}/missions/${id(missionId)}/export`, headers: { accept: "application/zip" }, signal }),
    );
  }
}

export class Submissions extends Resource {
  /** Uploads photos to a mission (zoomer credentials): 202, QA runs afterwards. */
  create(
    missionId: string,
    input: { photos: readonly PhotoUpload[]; angle?: string; note?: string },
    extras: RequestExtras = {},
  ): Promise<ResultOf<"createSubmission">> {
    return this.http.json({
      method: "POST",
      path: `${V1}/missions/${id(missionId)}/submissions`,
      form: photoForm(input.photos, { angle: input.angle, note: input.note }),
      idempotencyKey: extras.idempotencyKey,
      signal: extras.signal,
    });
  }
  get(submissionId: string): Promise<ResultOf<"getSubmission">> {
    return this.http.json({ method: "GET", path: `${V1}/submissions/${id(submissionId)}` });
  }
  images(submissionId: string): Promise<ResultOf<"listSubmissionImages">> {
    return this.http.json({ method: "GET", path: `${V1}/submissions/${id(submissionId)}/images` });
  }
}

export class Images extends Resource {
  /** Streams an image from its signed CDN URL (an image record's `url` / `thumbnail_url`, a delivered photo's URL). */
  async download(signedUrl: string, signal?: AbortSignal): Promise<Download> {
    return downloadFrom(await this.http.send({ method: "GET", path: signedUrl, authenticated: false, headers: { accept: "image/*" }, signal }));
  }
}

export class Webhooks extends Resource {
  /** Registers an endpoint; the result carries the signing `secret`, shown this once. */
  create(input: BodyOf<"createWebhook">, extras: RequestExtras = {}): Promise<ResultOf<"createWebhook">> {
    return this.http.json({ method: "POST", path: `${V1}/webhooks`, json: input, idempotencyKey: extras.idempotencyKey });
  }
  list(): Promise<ResultOf<"listWebhooks">> {
    return this.http.json({ method: "GET", path: `${V1}/webhooks` });
  }
  get(webhookId: string): Promise<ResultOf<"getWebhook">> {
    return this.http.json({ method: "GET", path: `${V1}/webhooks/${id(webhookId)}` });
  }
  update(webhookId: string, input: BodyOf<"updateWebhook">): Promise<ResultOf<"updateWebhook">> {
    return this.http.json({ method: "PATCH", path: `${V1}/webhooks/${id(webhookId)}`, json: input });
  }
  async delete(webhookId: string): Promise<void> {
    await this.http.send({ method: "DELETE", path: `${V1}/webhooks/${id(webhookId)}` });
  }
  /** A new secret; the old one keeps signing beside it for a grace period (verify with both). */
  rotateSecret(webhookId: string): Promise<ResultOf<"rotateWebhookSecret">> {
    return this.http.json({ method: "POST", path: `${V1}/webhooks/${id(webhookId)}/rotate-secret` });
  }
  sendTest(webhookId: string): Promise<ResultOf<"sendWebhookTest">> {
    return this.http.json({ method: "POST", path: `${V1}/webhooks/${id(webhookId)}/test` });
  }
  deliveries(webhookId: string, query: QueryOf<"listWebhookDeliveries"> = {}): Promise<ResultOf<"listWebhookDeliveries">> {
    return this.http.json({ method: "GET", path: `${V1}/webhooks/${id(webhookId)}/deliveries`, query: query as Query });
  }
}

/** For zoomers: missions and order tasks near them. */
export class Field extends Resource {
  nearbyMissions(query: QueryOf<"listNearbyMissions">): Promise<ResultOf<"listNearbyMissions">> {
    return this.http.json({ method: "GET", path: `${V1}/field/missions`, query: query as Query });
  }
  nearbyAssignments(query: QueryOf<"listNearbyAssignments">): Promise<ResultOf<"listNearbyAssignments">> {
    return this.http.json({ method: "GET", path: `${V1}/field/assignments`, query: query as Query });
  }
  getAssignment(assignmentId: string): Promise<ResultOf<"getAssignment">> {
    return this.http.json({ method: "GET", path: `${V1}/field/assignments/${id(assignmentId)}` });
  }
  takeAssignment(assignmentId: string): Promise<ResultOf<"takeAssignment">> {
    return this.http.json({ method: "POST", path: `${V1}/field/assignments/${id(assignmentId)}/take` });
  }
  releaseAssignment(assignmentId: string): Promise<ResultOf<"releaseAssignment">> {
    return this.http.json({ method: "POST", path: `${V1}/field/assignments/${id(assignmentId)}/release` });
  }
  submitAssignmentPhoto(assignmentId: string, photo: PhotoUpload, extras: RequestExtras = {}): Promise<ResultOf<"submitAssignmentPhoto">> {
    return this.http.json({
      method: "POST",
      path: `${V1}/field/assignments/${id(assignmentId)}/photo`,
      form: photoForm([photo], {}),
      idempotencyKey: extras.idempotencyKey,
    });
  }
}

export class Orders extends Resource {
  quote(input: BodyOf<"quoteOrder">, extras: RequestExtras = {}): Promise<ResultOf<"quoteOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders/quote`, json: input, idempotencyKey: extras.idempotencyKey });
  }
  create(input: BodyOf<"createOrder">, extras: RequestExtras = {}): Promise<ResultOf<"createOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders`, json: input, idempotencyKey: extras.idempotencyKey, signal: extras.signal });
  }
  get(orderId: string): Promise<ResultOf<"getOrder">> {
    return this.http.json({ method: "GET", path: `${ORDERS}/orders/${id(orderId)}` });
  }
  list(query: QueryOf<"listOrders"> = {}): Promise<ResultOf<"listOrders">> {
    return this.http.json({ method: "GET", path: `${ORDERS}/orders`, query: query as Query });
  }
  iterate(query: Omit<QueryOf<"listOrders">, "page"> = {}) {
    return paginate((page, per_page) => this.list({ ...query, page, per_page }), query.per_page);
  }
  /** Confirms and pays (test mode: `{ payment_method: "card", payment_method_id: "pm_card_visa" }`). */
  confirm(orderId: string, input: BodyOf<"confirmOrder">, extras: RequestExtras = {}): Promise<ResultOf<"confirmOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders/${id(orderId)}/confirm`, json: input, idempotencyKey: extras.idempotencyKey });
  }
  cancel(orderId: string, input: BodyOf<"cancelOrder"> = {}, extras: RequestExtras = {}): Promise<ResultOf<"cancelOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders/${id(orderId)}/cancel`, json: input, idempotencyKey: extras.idempotencyKey });
  }
  pause(orderId: string, extras: RequestExtras = {}): Promise<ResultOf<"pauseOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders/${id(orderId)}/pause`, idempotencyKey: extras.idempotencyKey });
  }
  resume(orderId: string, extras: RequestExtras = {}): Promise<ResultOf<"resumeOrder">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/orders/${id(orderId)}/resume`, idempotencyKey: extras.idempotencyKey });
  }
  missions(orderId: string): Promise<ResultOf<"listOrderMissions">> {
    return this.http.json({ method: "GET", path: `${ORDERS}/orders/${id(orderId)}/missions` });
  }
  listPhotos(orderId: string, query: QueryOf<"listOrderPhotos"> = {}): Promise<ResultOf<"listOrderPhotos">> {
    return this.http.json({ method: "GET", path: `${ORDERS}/orders/${id(orderId)}/photos`, query: query as Query });
  }
  /** Every delivered photo of the order, across pages. */
  iteratePhotos(orderId: string, query: Omit<QueryOf<"listOrderPhotos">, "page"> = {}) {
    return paginate((page, per_page) => this.listPhotos(orderId, { ...query, page, per_page }), query.per_page);
  }
  schedule(orderId: string): Promise<ResultOf<"getOrderSchedule">> {
    return this.http.json({ method: "GET", path: `${ORDERS}/orders/${id(orderId)}/schedule` });
  }
  /** The order-delivery secret that signs photos.delivered: created once, shown once. */
  createDeliverySecret(extras: RequestExtras = {}): Promise<ResultOf<"createDeliverySecret">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/delivery-secret`, idempotencyKey: extras.idempotencyKey });
  }
  rotateDeliverySecret(extras: RequestExtras = {}): Promise<ResultOf<"rotateDeliverySecret">> {
    return this.http.json({ method: "POST", path: `${ORDERS}/delivery-secret/rotate`, idempotencyKey: extras.idempotencyKey });
  }
}
