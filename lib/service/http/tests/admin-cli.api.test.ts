// The operator CLI (`npm run admin`) against a running service over HTTP: it lists organisations
// with their plan and the month's use, changes a plan, and rotates an order-delivery secret.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";

const run = promisify(execFile);
let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

async function admin(...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--url", service.url], {
    env: { ...process.env, ADMIN_TOKEN },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as unknown;
}

describe("npm run admin", () => {
  it("lists organisations by name with plan and use, sets a plan, rotates the delivery secret", async () => {
    const orgId = await api.createOrg("Cli Search Target");
    await api.createOrg("Someone Else");
    expect(await admin("org", "set-plan", "--org", orgId, "--plan", "business")).toMatchObject({ id: orgId, plan: "business" });
    const listed = (await admin("org", "list", "--q", "search target")) as { data: { id: string; plan: string; usage: { photos: number; photos_per_month: number } }[] };
    expect(listed.data).toEqual([expect.objectContaining({ id: orgId, plan: "business", usage: expect.objectContaining({ photos: 0, photos_per_month: 10_000 }) })]);
    const rotated = (await admin("delivery-secret", "rotate", "--org", orgId)) as { secret: string; exists: boolean };
    expect(rotated).toMatchObject({ exists: true, secret: expect.stringMatching(/^odsec_/) });
  }, 120_000);
});
