import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it } from "vitest";
import { describeError, log, redactText, setLogSink } from "./log";

const SECRET = "whsec_Zk3xM1q9w8e7r6t5y4u3i2o1p0aSdFgHjKl";
const HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

let lines: { line: string; level: string }[] = [];
let restore = () => {};
afterEach(() => restore());
function capture() {
  lines = [];
  restore = setLogSink((line, level) => lines.push({ line, level }));
}

describe("describeError", () => {
  it("never carries a failed query's parameters, only the database error behind it", () => {
    const pgError = Object.assign(new Error('new row for relation "webhook_endpoints" violates check constraint "no_rows"'), {
      code: "23514",
      table: "webhook_endpoints",
      constraint: "no_rows",
      detail: `Failing row contains (wh_1, ${SECRET}).`,
    });
    const error = new DrizzleQueryError('insert into "webhook_endpoints" ("id", "secret") values ($1, $2)', ["wh_1", SECRET], pgError);
    const summary = describeError(error);
    const text = JSON.stringify(summary);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("Failing row");
    expect(summary).toMatchObject({ name: "QueryError", cause: { code: "23514", table: "webhook_endpoints", constraint: "no_rows" } });
  });

  it("keeps name, code and message of an ordinary error, and where it was thrown", () => {
    const error = Object.assign(new TypeError("bad thing"), { code: "E_BAD" });
    expect(describeError(error)).toMatchObject({ name: "TypeError", code: "E_BAD", message: "bad thing", at: expect.any(Array) });
  });
});

describe("redactText", () => {
  it.each([
    [`failed with ${SECRET} inside`, SECRET],
    // A Standard Webhooks secret: standard base64, whose + and / must not end the match.
    ["secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/x9x0Zt/BI= leaked", "x9x0Zt/BI="],
    ["secret odsec_Zk3xM1q9w8e7r6t5y4u3i2o1p0aSdFgHjKl leaked", "Zk3xM1q9w8e7r6t5"],
    [`hash ${HASH}`, HASH],
    ["token eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl", "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"],
    ["sealed v1:k_3f2a:bm9uY2U:Y2lwaGVydGV4dA", "Y2lwaGVydGV4dA"],
    ["Failed query: select 1\nparams: cs_abcdefghijklmnop,42", "42"],
  ])("removes secret-shaped text from %j", (text, secret) => {
    expect(redactText(text)).not.toContain(secret);
  });
});

describe("log", () => {
  it("writes one JSON line per event with time, level and message", () => {
    capture();
    log.info("service ready", { database: "pglite", port: 3000 });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]?.line ?? "") as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "info", msg: "service ready", database: "pglite", port: 3000 });
    expect(Date.parse(String(entry.time))).not.toBeNaN();
    expect(lines[0]?.line).not.toContain("\n");
  });

  it("redacts fields whose names say they hold credentials, whatever their value", () => {
    capture();
    log.warn("odd", { client_secret: "plain-looking", password: "hunter2", secret_hash: "abc", authorization: "Bearer x", org_id: "org_1" });
    const entry = JSON.parse(lines[0]?.line ?? "") as Record<string, unknown>;
    expect(entry).toMatchObject({
      client_secret: "[redacted]",
      password: "[redacted]",
      secret_hash: "[redacted]",
      authorization: "[redacted]",
      org_id: "org_1",
    });
    expect(lines[0]?.level).toBe("warn");
  });
});
