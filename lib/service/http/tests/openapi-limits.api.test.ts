// Limits of the routes whose handlers read the request themselves (the token endpoint, the
// multipart intake) and the page cap: each is enforced with a 4xx (never a 500) and stated in the
// document with the same number.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANGLES } from "@/lib/schemas/submission";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { createZoomer, photo, submitPhotos } from "./photos";

type Schema = {
  type?: string;
  maxLength?: number;
  maxItems?: number;
  minItems?: number;
  maximum?: number;
  enum?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
};
type Document = {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string; schema: Schema }[]; requestBody: { content: Record<string, { schema: Schema }> } }>
  >;
  components: { schemas: Record<string, Schema> };
};

let service: TestService;
let api: TestClient;
let doc: Document;
let partner: Awaited<ReturnType<TestClient["partner"]>>;

beforeAll(async () => {
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  doc = (await api.request<Document>("GET", "/api/v1/openapi.json")).body;
  partner = await api.partner();
});
afterAll(() => service.close());

const resolve = (schema: Schema): Schema => (schema.$ref ? (doc.components.schemas[schema.$ref.split("/").at(-1) ?? ""] ?? {}) : schema);

describe("the token endpoint", () => {
  const tokenSchema = () => resolve(doc.paths["/api/v1/auth/token"]?.post?.requestBody.content["application/json"]?.schema ?? {});

  it.each([
    ["client_id", 100],
    ["client_secret", 200],
    ["scope", 1000],
  ])("%s: at most %i characters, documented and enforced with 400 invalid_request", async (name, max) => {
    expect(tokenSchema().properties?.[name]?.maxLength).toBe(max);
    const body = { grant_type: "client_credentials", client_id: "cli_x", client_secret: "x", [name]: "a".repeat(max + 1) };
    const res = await api.request<{ error: string; error_description: string }>("POST", "/api/v1/auth/token", { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.error_description).toContain(name);
  });

  it("a client_id longer than a database index entry can hold is refused (400) before it keys a rate-limit counter", async () => {
    // Random hex: PostgreSQL would compress a repetitive one below the index's ~2.7 kB limit.
    const body = { grant_type: "client_credentials", client_id: randomBytes(3900).toString("hex"), client_secret: "x" };
    const res = await api.request<{ error: string }>("POST", "/api/v1/auth/token", { body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });

  it("the same caps hold for HTTP Basic credentials (401 invalid_client, as malformed credentials)", async () => {
    const basic = Buffer.from(`${"a".repeat(101)}:secret`).toString("base64");
    const res = await api.request<{ error: string }>("POST", "/api/v1/auth/token", {
      rawBody: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    });
    expect(res.status, res.text).toBe(401);
    expect(res.body.error).toBe("invalid_client");
  });
});

describe("the multipart intake", () => {
  const intakeSchema = () => doc.paths["/api/v1/missions/{id}/submissions"]?.post?.requestBody.content["multipart/form-data"]?.schema ?? {};

  it("documents note ≤ 2000 characters, angle as the enum the API checks, and 1 to MAX_PHOTOS_PER_SUBMISSION photos", () => {
    const schema = resolve(intakeSchema());
    expect(schema.properties?.note?.maxLength).toBe(2000);
    expect(schema.properties?.angle?.enum).toEqual([...ANGLES]);
    expect(schema.properties?.photos?.minItems).toBe(1);
    expect(schema.properties?.photos?.maxItems).toBe(service.runtime.ctx.config.uploads.maxPhotos);
  });

  it("enforces them", async () => {
    const missionId = (await api.createMission(partner.token)).id;
    const zoomer = await createZoomer(api);
    const jpeg = await photo();
    const longNote = await submitPhotos(api, zoomer.token, missionId, [{ bytes: jpeg }], { note: "n".repeat(2001) });
    expect(longNote.status, longNote.text).toBe(422);
    const badAngle = await submitPhotos(api, zoomer.token, missionId, [{ bytes: jpeg }], { angle: "sideways" });
    expect(badAngle.status, badAngle.text).toBe(422);
    const max = service.runtime.ctx.config.uploads.maxPhotos;
    const tooMany = await submitPhotos(
      api,
      zoomer.token,
      missionId,
      Array.from({ length: max + 1 }, () => ({ bytes: jpeg })),
    );
    expect(tooMany.status, tooMany.text).toBe(413);
  });
});

describe("page", () => {
  it.each(["/api/v1/missions", "/api/v1/webhooks/{id}/deliveries", "/api/v1/missions/{id}/submissions"])("%s documents a maximum page", (path) => {
    const page = doc.paths[path]?.get?.parameters?.find((p) => p.name === "page");
    expect(page?.schema.maximum).toBe(10_000);
  });

  it("a page past the maximum is a 422 naming it, as documented", async () => {
    const res = await api.request("GET", "/api/v1/missions?page=10001", { token: partner.token });
    const problem = expectProblem(res, 422, "validation_failed");
    expect(problem.errors?.map((e) => e.pointer)).toContain("page");
  });
});
