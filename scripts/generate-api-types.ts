// npm run api:types — regenerates lib/api-client/openapi-types.ts (the dashboard's) and
// clients/typescript/src/generated/openapi.ts (the SDK's) from the OpenAPI documents.
import { mkdirSync, writeFileSync } from "node:fs";
import { renderApiTypes, renderSdkTypes } from "@/scripts/render-api-types";

const out = new URL("../lib/api-client/openapi-types.ts", import.meta.url);
writeFileSync(out, await renderApiTypes());
console.log(`wrote ${out.pathname}`);

const sdkOut = new URL("../clients/typescript/src/generated/openapi.ts", import.meta.url);
mkdirSync(new URL(".", sdkOut), { recursive: true });
writeFileSync(sdkOut, await renderSdkTypes());
console.log(`wrote ${sdkOut.pathname}`);
