// The operator's and the field's side of the dashboard tests, over real HTTP: organisations, users
// with a password and a role, partner clients and their tokens, zoomers and their multipart
// submissions. Each spec makes its own accounts, so what it asserts never depends on the demo data.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import type { Role } from "@/lib/auth/roles";
import { bearer, clientCredentialsToken, createOrganisation, createPartnerClient } from "./api";
import { DATA_DIR } from "./server";

/** The operator token the server generated on its first start (owner-only file in DATA_DIR). */
export function readAdminToken(): string {
  return readFileSync(join(DATA_DIR, "admin-token"), "utf8").trim();
}

/** Unique per call within a run: names and emails never collide between tests or retries. */
export function unique(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export interface Polygon {
  type: "Polygon";
  coordinates: [number, number][][];
}

/** A closed axis-aligned rectangle around a point, `halfM` metres each way (about). */
export function squareAround(lat: number, lng: number, halfM = 150): Polygon {
  const dLat = halfM / 111_320;
  const dLng = halfM / (111_320 * Math.cos((lat * Math.PI) / 180));
  const [w, e, s, n] = [lng - dLng, lng + dLng, lat - dLat, lat + dLat].map((v) => Math.round(v * 1e6) / 1e6) as [number, number, number, number];
  return {
    type: "Polygon",
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}

export interface DashboardUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: Role;
  orgId: string;
}

export interface MissionSummary {
  id: string;
  title: string;
  status: string;
  required_images: number;
  bounds: Polygon;
  submissions: number;
}

export interface SubmissionSummary {
  id: string;
  mission_id: string;
  status: "received" | "processing" | "approved" | "rejected";
  location: { lat: number; lng: number } | null;
}

/** The operator API (/api/admin/v1) and the partner and field APIs it hands out credentials for. */
export class Operator {
  constructor(
    readonly request: APIRequestContext,
    readonly adminToken: string,
  ) {}

  async createOrg(label: string): Promise<{ id: string; name: string }> {
    return createOrganisation(this.request, this.adminToken, unique(label));
  }

  /** A dashboard user; an existing email is added to this organisation too (same password). */
  async createUser(orgId: string, role: Role, options: { email?: string; password?: string; name?: string } = {}): Promise<DashboardUser> {
    const email = options.email ?? `${unique(role)}@e2e.photo-missions.test`;
    const password = options.password ?? `pw-${unique("secret")}`;
    const name = options.name ?? `E2E ${role} ${email.slice(0, 14)}`;
    const res = await this.request.post(`/api/admin/v1/orgs/${orgId}/users`, {
      headers: bearer(this.adminToken),
      data: { email, password, role, name },
    });
    expect(res.status(), await res.text()).toBe(201);
    const body = (await res.json()) as { id: string };
    return { id: body.id, email, password, name, role, orgId };
  }

  /** Partner client credentials of the organisation, and a token for them. */
  async partner(orgId: string, scopes: string[] = ["missions:read", "missions:write", "submissions:read", "webhooks:manage"]) {
    const client = await createPartnerClient(this.request, this.adminToken, orgId, scopes);
    const token = await clientCredentialsToken(this.request, client);
    return new PartnerApi(this.request, token.access_token, client);
  }

  /** A zoomer (field contributor) and a submissions:write token for it. */
  async zoomer(label = "e2e zoomer") {
    const res = await this.request.post("/api/admin/v1/zoomers", { headers: bearer(this.adminToken), data: { name: unique(label) } });
    expect(res.status(), await res.text()).toBe(201);
    const zoomer = (await res.json()) as { id: string; name: string; client_id: string; client_secret: string };
    const token = await clientCredentialsToken(this.request, zoomer);
    expect(token.scope).toBe("submissions:write");
    return new ZoomerApi(this.request, token.access_token, zoomer);
  }
}

/** What a partner's own systems do with client-credentials tokens: the public REST API. */
export class PartnerApi {
  constructor(
    readonly request: APIRequestContext,
    readonly token: string,
    readonly client: { client_id: string; client_secret: string },
  ) {}

  async createMission(input: { title: string; bounds: Polygon; required_images?: number; description?: string }): Promise<MissionSummary> {
    const res = await this.request.post("/api/v1/missions", { headers: bearer(this.token), data: { required_images: 5, ...input } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as MissionSummary;
  }

  async missions(status = "all"): Promise<MissionSummary[]> {
    const res = await this.request.get(`/api/v1/missions?status=${status}&per_page=100`, { headers: bearer(this.token) });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { data: MissionSummary[] }).data;
  }

  async submissions(missionId: string): Promise<SubmissionSummary[]> {
    const res = await this.request.get(`/api/v1/missions/${missionId}/submissions?per_page=100`, { headers: bearer(this.token) });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { data: SubmissionSummary[] }).data;
  }

  async submission(id: string): Promise<SubmissionSummary & { images: { id: string; sha256: string }[] }> {
    const res = await this.request.get(`/api/v1/submissions/${id}`, { headers: bearer(this.token) });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as SubmissionSummary & { images: { id: string; sha256: string }[] };
  }

  /**
   * Waits until QA has decided every one of these submissions (approved or rejected). Asks only for
   * the undecided ones, less often as the wait grows: the organisation's limit is 60 requests a
   * minute, and on a loaded machine QA can take longer than a minute of one-second polls.
   */
  async waitUntilDecided(ids: string[], timeout = 120_000): Promise<void> {
    const decided = new Set<string>();
    await expect
      .poll(
        async () => {
          const undecided = ids.filter((id) => !decided.has(id));
          for (const s of await Promise.all(undecided.map((id) => this.submission(id)))) {
            if (s.status === "approved" || s.status === "rejected") decided.add(s.id);
          }
          return decided.size;
        },
        { timeout, intervals: [500, 1000, 2000, 5000], message: `QA decides submissions ${ids.join(", ")}` },
      )
      .toBe(ids.length);
  }

  async createWebhook(url: string): Promise<{ id: string; secret: string }> {
    const res = await this.request.post("/api/v1/webhooks", { headers: bearer(this.token), data: { url, events: ["*"] } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: string; secret: string };
  }
}

export interface UploadPhoto {
  name: string;
  buffer: Buffer;
}

/** A zoomer's phone: sends photos to a mission the way the field API expects (multipart `photos`). */
export class ZoomerApi {
  constructor(
    readonly request: APIRequestContext,
    readonly token: string,
    readonly credentials: { id: string; name: string; client_id: string; client_secret: string },
  ) {}

  async submit(missionId: string, photos: UploadPhoto[], options: { angle?: string; note?: string } = {}): Promise<SubmissionSummary> {
    const form = new FormData();
    for (const photo of photos) form.append("photos", new Blob([new Uint8Array(photo.buffer)], { type: "image/jpeg" }), photo.name);
    if (options.angle) form.append("angle", options.angle);
    if (options.note) form.append("note", options.note);
    const res = await this.request.post(`/api/v1/missions/${missionId}/submissions`, { headers: bearer(this.token), multipart: form });
    expect(res.status(), await res.text()).toBe(202);
    return (await res.json()) as SubmissionSummary;
  }
}
