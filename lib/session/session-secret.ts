import "server-only";
// The key next-auth encrypts session cookies with: NEXTAUTH_SECRET, or (embedded default) one
// generated on first start and kept owner-only in DATA_DIR, like the operator token.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { env } from "@/lib/env";

let cached: string | undefined;

export function sessionSecret(): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  if (env.DATABASE_URL || env.API_INTERNAL_URL) {
    throw new Error("NEXTAUTH_SECRET must be set when DATABASE_URL or API_INTERNAL_URL is: every web instance must share it.");
  }
  if (cached) return cached;
  const dir = resolve(env.DATA_DIR);
  const file = resolve(dir, "session-secret");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
      chmodSync(file, 0o600);
    } catch (error) {
      // Another process wrote it first: use theirs.
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    }
  }
  cached = readFileSync(file, "utf8").trim();
  return cached;
}
