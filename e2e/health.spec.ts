import { expect, test } from "@playwright/test";

test("GET /api/health answers ok on the embedded database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", database: "pglite" });
});
