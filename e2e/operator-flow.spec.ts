// The one-command app end to end over real HTTP: the operator token the server generated on first
// start, then operator API -> partner credentials -> OAuth token -> missions.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { bearer, clientCredentialsToken, createOrganisation, createPartnerClient } from "./support/api";
import { DATA_DIR } from "./support/server";

test("operator token file is owner-only, and drives org -> client -> token -> mission", async ({ request, baseURL }) => {
  const tokenFile = join(DATA_DIR, "admin-token");
  const mode = statSync(tokenFile).mode & 0o777;
  expect(mode.toString(8)).toBe("600");
  const adminToken = readFileSync(tokenFile, "utf8").trim();
  expect(adminToken).toMatch(/^adm_[A-Za-z0-9_-]{43}$/);

  // Without the operator token the operator API refuses.
  const anonymous = await request.post("/api/admin/v1/orgs", { data: { name: "Nope" } });
  expect(anonymous.status()).toBe(401);

  const org = await createOrganisation(request, adminToken, "E2E Surveying Ltd");
  expect(org.name).toBe("E2E Surveying Ltd");

  const client = await createPartnerClient(request, adminToken, org.id, ["missions:read", "missions:write"]);
  expect(client.client_secret).toBeTruthy();

  const token = await clientCredentialsToken(request, client);
  expect(token.token_type).toBe("Bearer");
  expect(token.scope.split(" ").sort()).toEqual(["missions:read", "missions:write"]);

  const bounds = {
    type: "Polygon",
    coordinates: [
      [
        [11.255, 43.768],
        [11.262, 43.768],
        [11.262, 43.773],
        [11.255, 43.773],
        [11.255, 43.768],
      ],
    ],
  };
  const created = await request.post("/api/v1/missions", {
    headers: bearer(token.access_token),
    data: { title: "Piazza del Duomo", bounds, required_images: 5 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const mission = (await created.json()) as { id: string; title: string; status: string };
  expect(mission).toMatchObject({ title: "Piazza del Duomo", status: "active" });
  expect(created.headers()["location"]).toBe(`${baseURL}/api/v1/missions/${mission.id}`);

  const list = await request.get("/api/v1/missions", { headers: bearer(token.access_token) });
  expect(list.status(), await list.text()).toBe(200);
  const body = (await list.json()) as { data: { id: string }[] };
  expect(body.data.map((m) => m.id)).toContain(mission.id);
});
