// Puts a partner, a client, a token and a mission, an order partner, zoomers and their tokens into
// a freshly started API, through the same public interfaces a real operator, partner and zoomer use.
import { postJson, stringField } from "./http";
import { readAdminToken, type RunningApi } from "./targets";

export interface SeededMission {
  accessToken: string;
  missionId: string;
  /** The request path that is benchmarked. */
  path: string;
}

// A 0.005° square in Florence (about 400 m × 550 m).
const [LNG, LAT, SIZE] = [11.255, 43.768, 0.005];
const BOUNDS = {
  type: "Polygon",
  coordinates: [
    [
      [LNG, LAT],
      [LNG + SIZE, LAT],
      [LNG + SIZE, LAT + SIZE],
      [LNG, LAT + SIZE],
      [LNG, LAT],
    ],
  ],
};

export async function seedMission(api: RunningApi): Promise<SeededMission> {
  const admin = readAdminToken(api);
  const org = await postJson(`${api.url}/api/admin/v1/orgs`, { name: "Benchmark partner" }, admin, 201);
  const client = await postJson(
    `${api.url}/api/admin/v1/orgs/${stringField(org, "id")}/clients`,
    { name: "benchmark", scopes: ["missions:read", "missions:write"] },
    admin,
    201,
  );
  const accessToken = await exchangeClientCredentials(api.url, client);
  const mission = await postJson(`${api.url}/api/v1/missions`, { title: "Benchmark mission", bounds: BOUNDS, required_images: 10 }, accessToken, 201);
  const missionId = stringField(mission, "id");
  return { accessToken, missionId, path: `/api/v1/missions/${missionId}` };
}

export interface SeededOrderPartner {
  orgId: string;
  /** `pm_live_…`, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/**
 * An organisation on the Enterprise plan (no per-minute limit on the order interface, so the load
 * is never throttled, and no request counting either: lib/service/http/middleware/authenticate.ts)
 * with a read-write order-interface API key, through the operator API.
 */
export async function seedOrderPartner(api: RunningApi): Promise<SeededOrderPartner> {
  const admin = readAdminToken(api);
  const org = await postJson(`${api.url}/api/admin/v1/orgs`, { name: "Benchmark orderer", plan: "enterprise" }, admin, 201);
  const orgId = stringField(org, "id");
  const key = await postJson(`${api.url}/api/admin/v1/orgs/${orgId}/api-keys`, { name: "benchmark" }, admin, 201);
  return { orgId, apiKey: stringField(key, "api_key") };
}

/** An access token for the client_id and client_secret of a created API client or zoomer. */
export async function exchangeClientCredentials(baseUrl: string, created: unknown): Promise<string> {
  const token = await postJson(
    `${baseUrl}/api/v1/auth/token`,
    { grant_type: "client_credentials", client_id: stringField(created, "client_id"), client_secret: stringField(created, "client_secret") },
    undefined,
    200,
  );
  return stringField(token, "access_token");
}

/** A zoomer created through the operator API: the answer, with its id and client credentials. */
export function createZoomer(baseUrl: string, adminToken: string, name: string): Promise<unknown> {
  return postJson(`${baseUrl}/api/admin/v1/zoomers`, { name }, adminToken, 201);
}

export interface SeededZoomer {
  id: string;
  /** Its access token for the field API. */
  token: string;
}

/** A zoomer and its access token. */
export async function seedZoomer(api: RunningApi, name: string): Promise<SeededZoomer> {
  const created = await createZoomer(api.url, readAdminToken(api), name);
  return { id: stringField(created, "id"), token: await exchangeClientCredentials(api.url, created) };
}
