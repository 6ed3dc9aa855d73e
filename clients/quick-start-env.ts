// The environment both clients' quick starts read (their READMEs list it): an organisation with a
// partner client, a zoomer, an order API key, a place and sample photos, against a test service.
import { join } from "node:path";
import { expect } from "vitest";
import { TestClient } from "@/lib/service/http/tests/client";
import type { TestService } from "@/lib/service/http/tests/harness";
import { makeSamplePhotos } from "@/scripts/make-sample-photos";

export const QUICK_START_PLACE = { lat: 43.7705, lng: 11.2575 } as const;

export async function quickStartEnv(service: TestService, scratch: string, label: string): Promise<Record<string, string>> {
  const api = new TestClient(service);
  const orgId = await api.createOrg(label);
  const partner = await api.createClient(orgId, ["missions:read", "missions:write", "submissions:read", "webhooks:manage"]);
  const zoomer = await api.createZoomer(`${label} zoomer`);
  const key = await api.admin<{ api_key: string }>("POST", `/orgs/${orgId}/api-keys`, { name: label });
  expect(key.status).toBe(201);
  const photos = await makeSamplePhotos(QUICK_START_PLACE, join(scratch, "photos"));
  return {
    PHOTO_MISSIONS_URL: service.url,
    PARTNER_CLIENT_ID: partner.client_id,
    PARTNER_CLIENT_SECRET: partner.client_secret,
    ZOOMER_CLIENT_ID: zoomer.client_id,
    ZOOMER_CLIENT_SECRET: zoomer.client_secret,
    ORDERS_API_KEY: key.body.api_key,
    PLACE_LAT: String(QUICK_START_PLACE.lat),
    PLACE_LNG: String(QUICK_START_PLACE.lng),
    PHOTO_FILE: photos.missionPhoto,
    TASK_PHOTO_FILE: photos.taskPhoto,
  };
}
