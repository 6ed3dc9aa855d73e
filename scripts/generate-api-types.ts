// npm run api:types — regenerates lib/api-client/openapi-types.ts from the OpenAPI document.
import { writeFileSync } from "node:fs";
import { renderApiTypes } from "@/lib/api-client/render-api-types";

const out = new URL("../lib/api-client/openapi-types.ts", import.meta.url);
writeFileSync(out, await renderApiTypes());
console.log(`wrote ${out.pathname}`);
