// Honest counts: submissions already received when a mission completes are still checked and kept;
// the approved ones beyond the target are reported as extra, progress never passes the target,
// the mission completes once, and nothing new is accepted after it.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import type { Mission } from "@/lib/schemas/mission";
import { runQa } from "@/lib/service/qa/run-qa";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { createZoomer, photo, submitPhotos } from "./photos";

let service: TestService;
let api: TestClient;

// No worker: QA runs when the test says, so four submissions are surely in flight together.
beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

describe("mission progress", () => {
  it("keeps photos in flight at completion, counts them as extra and never above the target", async () => {
    const partner = await api.partner();
    const mission = await api.createMission(partner.token, { required_images: 2 });
    expect(mission).toMatchObject({ approved_images: 0, extra_images: 0 });
    const zoomer = await createZoomer(api);
    const ids: string[] = [];
    for (const seed of [71, 72, 73, 74]) {
      const sent = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed }) }]);
      expect(sent.status).toBe(202);
      ids.push(String(sent.body.id));
    }
    for (const id of ids) await runQa(service.runtime.ctx, id);

    const read = await api.request<Mission>("GET", `/api/v1/missions/${mission.id}`, { token: partner.token });
    expect(read.body).toMatchObject({ status: "completed", required_images: 2, approved_images: 4, extra_images: 2, submissions: 4 });
    const listed = await api.request<{ data: Mission[] }>("GET", "/api/v1/missions?status=completed", { token: partner.token });
    expect(listed.body.data.find((m) => m.id === mission.id)).toMatchObject({ approved_images: 4, extra_images: 2 });

    // Every one of them was checked and kept, and the mission completed exactly once.
    const decided = await api.request<{ data: { status: string }[] }>("GET", `/api/v1/missions/${mission.id}/submissions`, { token: partner.token });
    expect(decided.body.data.map((s) => s.status)).toEqual(["approved", "approved", "approved", "approved"]);
    const completions = await queryRows<{ n: number }>(
      service.runtime.ctx.db,
      sql`select count(*)::int as n from events where type = 'mission.completed' and data->'mission'->>'id' = ${mission.id}`,
    );
    expect(completions[0]?.n).toBe(1);

    const late = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: 75 }) }]);
    expect(late.status).toBe(409);
  });
});
