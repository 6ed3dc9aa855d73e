import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { renderSdkTypes } from "@/scripts/render-api-types";

describe("clients/typescript/src/generated/openapi.ts", () => {
  it("matches the service's current public OpenAPI document (run `npm run api:types` after changing the API)", async () => {
    const committed = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
    expect(committed).toBe(await renderSdkTypes({ openDatabase: openTemplatePglite }));
  }, 60_000);
});
