import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./harness";
import { TestClient, square } from "./client";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

describe("smoke", () => {
  it("health", async () => {
    const res = await api.request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", database: process.env.TEST_DATABASE_URL ? "postgres" : "pglite" });
  });

  it("creates and reads a mission", async () => {
    const { token } = await api.partner();
    const created = await api.request("POST", "/api/v1/missions", { token, body: { title: "Duomo", bounds: square(), required_images: 5 } });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    const got = await api.request("GET", `/api/v1/missions/${id}`, { token });
    expect(got.status).toBe(200);
    expect(got.headers.get("x-ratelimit-limit")).toBe("60");
  });
});
