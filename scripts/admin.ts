// Operator CLI over the operator interface (/api/admin/v1) of a running app. It talks HTTP only,
// never opens the database, so it works while the app (and its embedded PGlite) is running.
//
//   npm run admin -- org create --name "Acme" [--plan business]
//   npm run admin -- client create --org org_… --name "Acme backend" --scopes missions:read,missions:write
//   npm run admin -- client revoke --id cli_…
//   npm run admin -- user create --org org_… --email a@b.c --password … --role admin
//   npm run admin -- api-key create --org org_… --name "orders"
//   npm run admin -- zoomer create --name "Giulia"
//   npm run admin -- org list [--q acme]                       (plan and the month's photo use)
//   npm run admin -- org set-plan --org org_… --plan business
//   npm run admin -- org set-card --org org_… --card pm_card_declined   (test mode)
//   npm run admin -- api-key create --org org_… --name "reports" --access read_only
//   npm run admin -- api-key list --org org_…
//   npm run admin -- api-key revoke --org org_… --id key_…
//   npm run admin -- delivery-secret rotate --org org_…          (prints the new secret once)
//   npm run admin -- price-list get
//   npm run admin -- price-list set --file prices.json
//   npm run admin -- keys list                                  (the published signing keys)
//   npm run admin -- keys rotate                                (a new signing key; old ones stay published)
//
// Target: --url (default PUBLIC_ORIGIN); token: ADMIN_TOKEN, else <DATA_DIR>/admin-token.
// `--help` prints the usage; an unknown command or option prints a usage error (exit 2).
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { env } from "@/lib/env";
import { parseCliArgs } from "./cli-args";

interface Command {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: (flags: Flags) => string;
  body?: (flags: Flags) => Record<string, unknown>;
  required: (keyof Flags)[];
  /** Its options, in the usage (the required ones are listed from `required`). */
  optional?: (keyof Flags)[];
  summary: string;
}

const FLAG_NAMES = ["name", "plan", "org", "scopes", "id", "email", "password", "role", "url", "q", "card", "access", "file"] as const;
type Flags = Partial<Record<(typeof FLAG_NAMES)[number], string>>;

const COMMANDS: Record<string, Command> = {
  "org create": {
    summary: "create an organisation",
    method: "POST",
    path: () => "/orgs",
    body: (f) => ({ name: f.name, ...(f.plan ? { plan: f.plan } : {}) }),
    required: ["name"],
    optional: ["plan"],
  },
  "org list": {
    summary: "organisations with their plan and the month's photo use",
    method: "GET",
    path: (f) => `/orgs?per_page=100${f.q ? `&q=${encodeURIComponent(f.q)}` : ""}`,
    required: [],
    optional: ["q"],
  },
  "org set-plan": {
    summary: "change an organisation's plan",
    method: "PATCH",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}`,
    body: (f) => ({ plan: f.plan }),
    required: ["org", "plan"],
  },
  "org set-card": {
    summary: "the card on file (test mode)",
    method: "PATCH",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}`,
    body: (f) => ({ card_on_file: f.card }),
    required: ["org", "card"],
  },
  "client create": {
    summary: "partner API client credentials (printed once)",
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/clients`,
    body: (f) => ({ name: f.name, scopes: (f.scopes ?? "").split(/[ ,]+/).filter(Boolean) }),
    required: ["org", "name", "scopes"],
  },
  "client revoke": {
    summary: "revoke client credentials and their tokens",
    method: "DELETE",
    path: (f) => `/clients/${encodeURIComponent(f.id ?? "")}`,
    required: ["id"],
  },
  "user create": {
    summary: "a dashboard user (role admin, editor or viewer)",
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/users`,
    body: (f) => ({ email: f.email, password: f.password, role: f.role, ...(f.name ? { name: f.name } : {}) }),
    required: ["org", "email", "password", "role"],
    optional: ["name"],
  },
  "api-key create": {
    summary: "an order-interface API key (printed once)",
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/api-keys`,
    body: (f) => ({ name: f.name, ...(f.access ? { access: f.access } : {}) }),
    required: ["org", "name"],
    optional: ["access"],
  },
  "api-key list": {
    summary: "an organisation's API keys (prefixes only)",
    method: "GET",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/api-keys`,
    required: ["org"],
  },
  "api-key revoke": {
    summary: "revoke an API key: it stops working at once",
    method: "DELETE",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/api-keys/${encodeURIComponent(f.id ?? "")}`,
    required: ["org", "id"],
  },
  "delivery-secret rotate": {
    summary: "a new order-delivery secret (printed once)",
    method: "POST",
    path: (f) => `/orgs/${encodeURIComponent(f.org ?? "")}/delivery-secret/rotate`,
    required: ["org"],
  },
  "price-list get": { summary: "the price list", method: "GET", path: () => "/price-list", required: [] },
  "price-list set": {
    summary: "replace the price list with a JSON file",
    method: "PUT",
    path: () => "/price-list",
    body: (f) => readJsonFile(f.file ?? ""),
    required: ["file"],
  },
  "keys list": { summary: "the published signing keys (JWKS), the signing one first", method: "GET", path: () => "/keys", required: [] },
  "keys rotate": { summary: "a new signing key; retired keys stay published to verify", method: "POST", path: () => "/keys/rotate", required: [] },
  "zoomer create": {
    summary: "a field contributor with credentials (printed once)",
    method: "POST",
    path: () => "/zoomers",
    body: (f) => ({ name: f.name }),
    required: ["name"],
  },
};

const USAGE = [
  "Usage: npm run admin -- <command> [options]",
  "",
  "Operator commands over the running app's operator API; each prints the answer as JSON.",
  "",
  "Commands:",
  ...Object.entries(COMMANDS).map(([name, c]) => {
    const options = [...c.required.map((k) => `--${k} …`), ...(c.optional ?? []).map((k) => `[--${k} …]`)].join(" ");
    return `  ${`${name} ${options}`.padEnd(62)} ${c.summary}`;
  }),
  "",
  "Options for every command:",
  "  --url <origin>   the app (default PUBLIC_ORIGIN); the token is ADMIN_TOKEN, else DATA_DIR/admin-token",
  "  --help, -h       this help",
  "",
  "Exit codes: 0 done, 1 the app refused or could not be reached, 2 usage error.",
].join("\n");

function fail(message: string, code = 2): never {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  process.exit(code);
}

function readJsonFile(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(resolve(path), "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return fail(`${path} must hold a JSON object.`);
    return parsed as Record<string, unknown>;
  } catch (error) {
    return fail(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function adminToken(): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = resolve(env.DATA_DIR, "admin-token");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  return fail(`No ADMIN_TOKEN set and no ${file}: start the app once, or set ADMIN_TOKEN.`);
}

async function main() {
  const { values, positionals } = parseCliArgs(process.argv.slice(2), { usage: USAGE, strings: FLAG_NAMES, allowPositionals: true });
  const flags = values as Flags;
  const key = positionals.slice(0, 2).join(" ");
  const command = COMMANDS[key];
  if (!command) fail(key ? `Unknown command "${key}". Run with --help for the commands.` : "No command given. Run with --help for the commands.");
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
