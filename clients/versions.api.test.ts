// The clients' versions follow the API's: the SDK's package.json and SDK_VERSION, and the Python
// client's pyproject.toml and __version__, all equal the documents' info.version.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { fetchOpenApiDocument } from "@/scripts/render-api-types";
import { SDK_VERSION } from "./typescript/src/version";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("client versions", () => {
  it("equal the API's version", async () => {
    const { info } = JSON.parse(await fetchOpenApiDocument({ openDatabase: openTemplatePglite })) as { info: { version: string } };
    expect(info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect((JSON.parse(read("./typescript/package.json")) as { version: string }).version).toBe(info.version);
    expect(SDK_VERSION).toBe(info.version);
    expect(/^version = "([^"]+)"$/m.exec(read("./python/pyproject.toml"))?.[1]).toBe(info.version);
    expect(/^__version__ = "([^"]+)"$/m.exec(read("./python/src/photo_missions/client.py"))?.[1]).toBe(info.version);
  }, 60_000);
});
