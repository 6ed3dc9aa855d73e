// @photo-missions/sdk — TypeScript client for the Photo Missions API. No runtime dependencies:
// fetch, FormData, streams and WebCrypto from the platform (Node 20+, Deno, Bun, browsers' servers).
export { PhotoMissions, Missions, Submissions, Images, Webhooks, Field, Orders } from "./client.js";
export type { PhotoMissionsOptions, PhotoUpload, RequestExtras } from "./client.js";
export { ClientCredentials, ApiKey } from "./auth.js";
export type { Authenticator, ClientCredentialsOptions } from "./auth.js";
export { PhotoMissionsError, ProblemError, OAuthError, WebhookVerificationError, EvidenceVerificationError, parseRetryAfter } from "./errors.js";
export type { ProblemDetails, FieldProblem } from "./errors.js";
export { verifyWebhook } from "./webhooks.js";
export { verifyEvidence, EVIDENCE_TYP } from "./evidence.js";
export type { VerifyEvidenceOptions, EvidenceRecord, EvidenceCheck, Jwks } from "./evidence.js";
export type { VerifyWebhookOptions, WebhookEvent, WebhookEvents } from "./webhooks.js";
export { paginate } from "./paging.js";
export type { Download } from "./download.js";
export type { RetryOptions } from "./transport.js";
export { missionBody } from "./types.js";
export type * from "./types.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { SDK_VERSION } from "./version.js";
