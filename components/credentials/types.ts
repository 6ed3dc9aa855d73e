// The organisation's credentials as the API lists them, never with a secret (types only):
// partner API clients (OAuth client credentials, mission interface) and API keys (order interface).
import type { components } from "@/lib/api-client/openapi-types";

export type ApiClient = components["schemas"]["ApiClient"];
export type ApiKey = components["schemas"]["OrgApiKey"];
