// Where the key that seals secrets at rest comes from (lib/auth/secret-box.ts), kept apart from
// the database so that its files, dumps and backups alone reveal nothing:
// 1. SECRETS_KEY (and SECRETS_KEY_PREVIOUS, keys that only open old values) from the environment;
// 2. otherwise a key file: SECRETS_KEY_FILE, or by default DATA_DIR/keys/secrets.key — beside the
//    embedded database's directory (DATA_DIR/pglite), not in it, owner-only (0600 in a 0700
//    directory). Its first key seals; further lines are previous keys. Generated on first start
//    for the embedded default only: with DATABASE_URL every instance must share one key, so
//    SECRETS_KEY or an existing SECRETS_KEY_FILE is required, as ADMIN_TOKEN is.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Env } from "@/lib/env";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/fs/private-files";
import { createSecretBox, decodeSecretsKey, generateSecretsKey, type SecretBox } from "@/lib/auth/secret-box";

export class SecretsKeyError extends Error {}

export function defaultSecretsKeyFile(dataDir: string): string {
  return resolve(dataDir, "keys", "secrets.key");
}

function decodeAll(texts: string[], where: string): Buffer[] {
  return texts.map((text, index) => {
    const key = decodeSecretsKey(text);
    if (!key) throw new SecretsKeyError(`${where}: key ${index + 1} is not a 32-byte key (base64url, base64 or hex).`);
    return key;
  });
}

function readKeyFile(file: string): Buffer[] {
  // Owner-only whatever the umask it was written under (or copied with).
  ensurePrivateDir(dirname(file));
  chmodSync(file, PRIVATE_FILE_MODE);
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  if (lines.length === 0) throw new SecretsKeyError(`${file} holds no key.`);
  return decodeAll(lines, file);
}

function createKeyFile(file: string): void {
  ensurePrivateDir(dirname(file));
  const header =
    "# Photo Missions: the key that seals secrets in the database (token-signing keys, webhook secrets).\n" +
    "# Keep it apart from database backups, and back it up separately: without it those secrets are lost.\n" +
    "# The first key seals; keys on further lines only open values sealed before a rotation.\n";
  try {
    writeFileSync(file, `${header}${generateSecretsKey()}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch (error) {
    // Another process of this data directory wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

export interface LoadedSecretBox {
  box: SecretBox;
  /** Where the current key came from, for the start-up log (never the key itself). */
  source: string;
}

export function loadSecretBox(e: Pick<Env, "SECRETS_KEY" | "SECRETS_KEY_PREVIOUS" | "SECRETS_KEY_FILE" | "DATA_DIR" | "DATABASE_URL">): LoadedSecretBox {
  const previousFromEnv = decodeAll(e.SECRETS_KEY_PREVIOUS, "SECRETS_KEY_PREVIOUS");
  if (e.SECRETS_KEY) {
    const current = decodeAll([e.SECRETS_KEY], "SECRETS_KEY")[0];
    if (!current) throw new SecretsKeyError("SECRETS_KEY is empty.");
    return { box: createSecretBox({ current, previous: previousFromEnv }), source: "SECRETS_KEY" };
  }
  const file = e.SECRETS_KEY_FILE ? resolve(e.SECRETS_KEY_FILE) : defaultSecretsKeyFile(e.DATA_DIR);
  if (!existsSync(file)) {
    if (e.DATABASE_URL) {
      throw new SecretsKeyError(
        e.SECRETS_KEY_FILE
          ? `SECRETS_KEY_FILE ${file} does not exist: with DATABASE_URL every instance must share one key, so it is never generated.`
          : "SECRETS_KEY (or SECRETS_KEY_FILE) must be set when DATABASE_URL is: every instance must share the key that seals secrets in the database.",
      );
    }
    createKeyFile(file);
  }
  const [current, ...previous] = readKeyFile(file);
  if (!current) throw new SecretsKeyError(`${file} holds no key.`);
  return { box: createSecretBox({ current, previous: [...previous, ...previousFromEnv] }), source: file };
}
