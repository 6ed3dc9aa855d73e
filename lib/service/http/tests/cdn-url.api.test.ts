// CDN_URL: the API hands out photo URLs under another base (a caching CDN in front of /cdn/), and
// a request the CDN forwards to this app's /cdn/ with the same path and query is served: the
// signature covers the image, the variant and the expiry, not the host.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient, square } from "./client";
import { startTestService, type TestService } from "./harness";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

const CDN_URL = "https://photos.example.net/pm";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService(
    { cdnUrl: CDN_URL, rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } },
    { worker: true },
  );
  api = new TestClient(service);
});
afterAll(() => service.close());

describe("CDN_URL", () => {
  it("puts every photo URL under it, and this app serves what the CDN forwards", async () => {
    const partner = await api.partner();
    const zoomer = await createZoomer(api);
    const mission = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token: partner.token,
      body: { title: "CDN", bounds: square(), required_images: 5 },
    });
    const sent = await submitPhotos(api, zoomer.token, mission.body.id, [{ bytes: await photo({ seed: 91 }) }]);
    expect(sent.status, sent.text).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(sent.body.id));
    const image = decided.images[0] as { url: string; thumbnail_url: string; preview_url: string };
    for (const url of [image.url, image.thumbnail_url, image.preview_url]) expect(url.startsWith(`${CDN_URL}/images/`), url).toBe(true);

    const forwarded = (url: string) => `${service.url}/cdn${url.slice(CDN_URL.length)}`;
    const original = await fetch(forwarded(image.url));
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/jpeg");
    expect((await fetch(forwarded(image.thumbnail_url))).status).toBe(200);
  }, 60_000);
});
