import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote, tokenCurl } from "./token-curl";

describe("shellQuote", () => {
  it("keeps every character literal, single quotes included", () => {
    for (const value of ["plain", "with space", "it's", '$HOME `id` \\n "x"', "'"]) {
      // printf through a real shell gives back exactly what was quoted.
      expect(execFileSync("sh", ["-c", `printf %s ${shellQuote(value)}`]).toString()).toBe(value);
    }
  });
});

describe("tokenCurl", () => {
  const base = { tokenUrl: "https://missions.example/api/v1/auth/token", clientId: "cli_06h0abc", clientSecret: "cs_s3cr3t-_x" };

  it("posts the client-credentials grant with the id, secret and scopes as a form", () => {
    expect(tokenCurl({ ...base, scopes: ["missions:read", "submissions:read"] })).toBe(
      [
        "curl -X POST 'https://missions.example/api/v1/auth/token' \\",
        "  -d grant_type=client_credentials \\",
        "  --data-urlencode 'client_id=cli_06h0abc' \\",
        "  --data-urlencode 'client_secret=cs_s3cr3t-_x' \\",
        "  --data-urlencode 'scope=missions:read submissions:read'",
      ].join("\n"),
    );
  });

  it("leaves the scope out when there is none to ask for (the grant then has all the client's)", () => {
    expect(tokenCurl({ ...base, scopes: [] })).not.toContain("scope=");
  });

  it("is one shell command whose arguments arrive intact", () => {
    const command = tokenCurl({ ...base, clientSecret: "a'b c", scopes: ["missions:read"] }).replace(/^curl/, "printf '%s\\n'");
    expect(execFileSync("sh", ["-c", command]).toString().split("\n")).toEqual([
      "-X",
      "POST",
      "https://missions.example/api/v1/auth/token",
      "-d",
      "grant_type=client_credentials",
      "--data-urlencode",
      "client_id=cli_06h0abc",
      "--data-urlencode",
      "client_secret=a'b c",
      "--data-urlencode",
      "scope=missions:read",
      "",
    ]);
  });
});
