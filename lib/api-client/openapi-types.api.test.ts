import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { renderApiTypes } from "@/scripts/render-api-types";

describe("lib/api-client/openapi-types.ts", () => {
  it("matches the service's current OpenAPI document (run `npm run api:types` after changing the API)", async () => {
    const committed = readFileSync(new URL("./openapi-types.ts", import.meta.url), "utf8");
    expect(committed).toBe(await renderApiTypes({ openDatabase: openTemplatePglite }));
  }, 60_000);
});
