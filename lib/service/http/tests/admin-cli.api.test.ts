// The operator CLI (`npm run admin`) against a running service over HTTP: it lists organisations
// with their plan and the month's use, changes a plan, rotates an order-delivery secret, and
// rotates the service's signing keys.
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
    const listed = (await admin("org", "list", "--q", "search target")) as {
      data: { id: string; plan: string; usage: { photos: number; photos_per_month: number } }[];
    };
    expect(listed.data).toEqual([
      expect.objectContaining({ id: orgId, plan: "business", usage: expect.objectContaining({ photos: 0, photos_per_month: 10_000 }) }),
    ]);
    const rotated = (await admin("delivery-secret", "rotate", "--org", orgId)) as { secret: string; exists: boolean };
    expect(rotated).toMatchObject({ exists: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
  }, 120_000);
});

/** The script's exit code, stdout and stderr, whatever the exit code. */
async function runScript(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", script, ...args], { env: { ...process.env, ADMIN_TOKEN }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("the scripts' usage", () => {
  it.each(["scripts/admin.ts", "scripts/make-sample-photos.ts"])(
    "%s --help prints the usage and exits 0; an unknown option is a usage error, exit 2, no stack trace",
    async (script) => {
      const help = await runScript(script, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: /);
      expect(help.stderr).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
      const wrong = await runScript(script, "--bogus");
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/^Usage error: unknown option --bogus\.\n\nUsage: /);
      expect(wrong.stderr).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
      expect(wrong.stdout).toBe("");
    },
    120_000,
  );

  it("the operator CLI's usage names every command, api-key revoke among them", async () => {
    const { stdout } = await runScript("scripts/admin.ts", "-h");
    for (const command of ["org create", "client revoke", "api-key create", "api-key list", "api-key revoke", "zoomer create"])
      expect(stdout).toContain(`  ${command} `);
  }, 60_000);
});

describe("npm run admin -- api-key revoke", () => {
  it("revokes an organisation's API key through the operator API: it stops working at once", async () => {
    const orgId = await api.createOrg("Cli Key Org");
    const key = (await admin("api-key", "create", "--org", orgId, "--name", "to revoke")) as { id: string; api_key: string };
    const orders = () => api.request("GET", "/api/orders/v1/orders", { token: key.api_key });
    expect((await orders()).status).toBe(200);

    expect(await admin("api-key", "revoke", "--org", orgId, "--id", key.id)).toEqual({ ok: true, status: 204 });
    expect((await orders()).status).toBe(401);
    const listed = (await admin("api-key", "list", "--org", orgId)) as { data: { id: string; revoked_at: string | null }[] };
    expect(listed.data).toEqual([expect.objectContaining({ id: key.id, revoked_at: expect.any(String) })]);
    // Again: nothing changes. Another organisation's key, or an unknown one: 404, exit 1.
    expect(await admin("api-key", "revoke", "--org", orgId, "--id", key.id)).toEqual({ ok: true, status: 204 });
    const otherOrg = await api.createOrg("Cli Other Org");
    const elsewhere = await runScript("scripts/admin.ts", "api-key", "revoke", "--org", otherOrg, "--id", key.id, "--url", service.url);
    expect(elsewhere.code).toBe(1);
    expect(JSON.parse(elsewhere.stderr)).toMatchObject({ status: 404 });
    const missing = await runScript("scripts/admin.ts", "api-key", "revoke", "--org", orgId, "--url", service.url);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--id");
  }, 120_000);
});

describe("npm run admin -- keys rotate", () => {
  it("makes a new signing key and C2PA claim certificate; the old key is retired but stays in the JWKS, and tokens are signed with the new one", async () => {
    const before = (await admin("keys", "list")) as { signing_kid: string; keys: { kid: string }[] };
    expect(before.keys.map((k) => k.kid)).toContain(before.signing_kid);
    const rotated = (await admin("keys", "rotate")) as {
      signing_kid: string;
      retired: string[];
      keys: { kid: string; signing: boolean; retired_at: string | null }[];
      c2pa_claim_certificate: { serial_number: string; not_after: string };
    };
    // The C2PA claim-signing certificate is renewed with them: a year, never more than 366 days.
    expect(rotated.c2pa_claim_certificate.serial_number).toMatch(/^[0-9a-f]+$/);
    expect(Date.parse(rotated.c2pa_claim_certificate.not_after) - Date.now()).toBeLessThanOrEqual(366 * 86_400_000);
    expect(rotated.retired).toEqual([before.signing_kid]);
    expect(rotated.signing_kid).not.toBe(before.signing_kid);
    expect(rotated.keys[0]).toMatchObject({ kid: rotated.signing_kid, signing: true, retired_at: null });
    expect(rotated.keys.find((k) => k.kid === before.signing_kid)).toMatchObject({ signing: false, retired_at: expect.any(String) });
    const jwks = (await api.request<{ keys: { kid: string }[] }>("GET", "/.well-known/jwks.json")).body;
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([before.signing_kid, rotated.signing_kid].sort());
    // A token issued now carries the new kid.
    const orgId = await api.createOrg("Cli Keys Org");
    const client = (await admin("client", "create", "--org", orgId, "--name", "after rotation", "--scopes", "missions:read")) as {
      client_id: string;
      client_secret: string;
    };
    const token = await api.token(client);
    const header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { kid: string };
    expect(header.kid).toBe(rotated.signing_kid);
  }, 120_000);
});
