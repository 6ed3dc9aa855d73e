import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSecretBox, keyIdOf } from "@/lib/auth/secret-box";
import { loadSecretBox } from "./secrets-key";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(join(tmpdir(), "pm-key-")));
const base = (dataDir: string) => ({
  DATA_DIR: dataDir,
  SECRETS_KEY_PREVIOUS: [] as string[],
  SECRETS_KEY: undefined,
  SECRETS_KEY_FILE: undefined,
  DATABASE_URL: undefined,
});

describe("loadSecretBox", () => {
  it("embedded default: generates DATA_DIR/keys/secrets.key once, owner-only, outside the database directory", () => {
    const dataDir = join(fresh(), "data");
    const first = loadSecretBox(base(dataDir));
    const file = join(dataDir, "keys", "secrets.key");
    expect(first.source).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "keys")).mode & 0o777).toBe(0o700);
    const again = loadSecretBox(base(dataDir));
    expect(again.box.keyId).toBe(first.box.keyId);
    expect(again.box.open(first.box.seal("kept"))).toBe("kept");
  });

  it("SECRETS_KEY wins; SECRETS_KEY_PREVIOUS only opens", () => {
    const current = randomBytes(32);
    const old = randomBytes(32);
    const { box, source } = loadSecretBox({ ...base(fresh()), SECRETS_KEY: current.toString("base64url"), SECRETS_KEY_PREVIOUS: [old.toString("hex")] });
    expect(source).toBe("SECRETS_KEY");
    expect(box.keyId).toBe(keyIdOf(current));
    expect(box.open(createSecretBox({ current: old }).seal("old value"))).toBe("old value");
  });

  it("a key file's first key seals, further lines are previous keys; comments are ignored", () => {
    const file = join(fresh(), "custom.key");
    const current = randomBytes(32);
    const old = randomBytes(32);
    writeFileSync(file, `# comment\n${current.toString("base64url")}\n${old.toString("base64url")}\n`, { mode: 0o644 });
    const { box } = loadSecretBox({ ...base(dir), SECRETS_KEY_FILE: file });
    expect(box.keyId).toBe(keyIdOf(current));
    expect(box.open(createSecretBox({ current: old }).seal("x"))).toBe("x");
    expect(statSync(file).mode & 0o777).toBe(0o600); // tightened on read
  });

  it("with DATABASE_URL a key is never generated: every instance must share one", () => {
    const dataDir = fresh();
    expect(() => loadSecretBox({ ...base(dataDir), DATABASE_URL: "postgres://x@localhost/db" })).toThrow(/SECRETS_KEY/);
    expect(() => readFileSync(join(dataDir, "keys", "secrets.key"))).toThrow();
  });
});
