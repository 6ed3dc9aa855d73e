// Operator CLI over the operator interface (/api/admin/v1) of a running app. It talks HTTP only,
// never opens the database, so it works while the app (and its embedded PGlite) is running.
//
//   npm run admin -- org create --name "Acme" [--plan business]
//   npm run admin -- client create --org org_… --name "Acme backend" --scopes missions:read,missions:write
//   npm run admin -- client revoke --id cli_…
//   npm run admin -- user create --org org_… --email a@b.c --password … --role admin
//   npm run admin -- api-key create --org org_… --name "orders"
//   npm run admin -- zoomer create --name "Giulia"
//
// Target: --url (default PUBLIC_ORIGIN); token: ADMIN_TOKEN, else <DATA_DIR>/admin-token.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { env } from "@/lib/env";

interface Command {
  method: "POST" | "DELETE";
  path: (flags: Flags) => string;
  body?: (flags: Flags) => Record<string, unknown>;
  required: (keyof Flags)[];
}

type Flags = Partial<Record<"name" | "plan" | "org" | "scopes" | "id" | "email" | "password" | "role" | "url", string>>;

const COMMANDS: Record<string, Command> = {
  "org create": { method: "POST", path: () => "/orgs", body: (f) => ({ name: f.name, ...(f.plan ? { plan: f.plan } : {}) }), required: ["name"] },
  "client create": {
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/clients`,
    body: (f) => ({ name: f.name, scopes: (f.scopes ?? "").split(/[ ,]+/).filter(Boolean) }),
    required: ["org", "name", "scopes"],
  },
  "client revoke": { method: "DELETE", path: (f) => `/clients/${encodeURIComponent(f.id ?? "")}`, required: ["id"] },
  "user create": {
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/users`,
    body: (f) => ({ email: f.email, password: f.password, role: f.role, ...(f.name ? { name: f.name } : {}) }),
    required: ["org", "email", "password", "role"],
  },
  "api-key create": {
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/api-keys`,
    body: (f) => ({ name: f.name }),
    required: ["org", "name"],
  },
  "zoomer create": { method: "POST", path: () => "/zoomers", body: (f) => ({ name: f.name }), required: ["name"] },
};

function fail(message: string, code = 2): never {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  process.exit(code);
}

function adminToken(): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = resolve(env.DATA_DIR, "admin-token");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  return fail(`No ADMIN_TOKEN set and no ${file}: start the app once, or set ADMIN_TOKEN.`);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: Object.fromEntries(
      ["name", "plan", "org", "scopes", "id", "email", "password", "role", "url"].map((k) => [k, { type: "string" as const }]),
    ),
  });
  const flags = values as Flags;
  const key = positionals.slice(0, 2).join(" ");
  const command = COMMANDS[key];
  if (!command) fail(`Unknown command "${key}". Commands: ${Object.keys(COMMANDS).join("; ")}.`);
  const missing = command.required.filter((k) => !flags[k]);
  if (missing.length > 0) fail(`"${key}" needs ${missing.map((m) => `--${m}`).join(", ")}.`);

  const base = (flags.url ?? env.PUBLIC_ORIGIN).replace(/\/$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}/api/admin/v1${command.path(flags)}`, {
      method: command.method,
      headers: { authorization: `Bearer ${adminToken()}`, ...(command.body ? { "content-type": "application/json" } : {}) },
      body: command.body ? JSON.stringify(command.body(flags)) : undefined,
    });
  } catch (error) {
    return fail(`Cannot reach the app at ${base} (${error instanceof Error ? error.message : String(error)}). Is it running?`, 1);
  }
  const text = await response.text();
  if (!response.ok) {
    process.stderr.write(`${text || JSON.stringify({ status: response.status })}\n`);
    process.exit(1);
  }
  process.stdout.write(`${text || JSON.stringify({ ok: true, status: response.status })}\n`);
}

await main();
