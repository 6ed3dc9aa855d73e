// Types taken from the generated OpenAPI types (./generated/openapi.ts), by operationId, so the
// SDK changes shape only when the API's documents do.
import type { components, operations } from "./generated/openapi.js";

export type Schemas = components["schemas"];
type Ops = operations;
type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON request body of an operation. */
export type BodyOf<K extends keyof Ops> = Json<NonNullable<Ops[K]["requestBody"]>>;
/** The JSON body of an operation's success response (200, 201 or 202). */
export type ResultOf<K extends keyof Ops> = Ops[K]["responses"] extends infer R
  ? R extends { 200: infer S }
    ? Json<S>
    : R extends { 201: infer S }
      ? Json<S>
      : R extends { 202: infer S }
        ? Json<S>
        : never
  : never;
/** The query parameters of an operation. */
export type QueryOf<K extends keyof Ops> = Ops[K]["parameters"] extends { query?: infer Q } ? NonNullable<Q> : never;

export type Mission = Schemas["Mission"];
export type Submission = Schemas["Submission"];
export type SubmissionDetail = Schemas["SubmissionDetail"];
export type Image = Schemas["Image"];
export type Webhook = Schemas["Webhook"];
export type WebhookWithSecret = Schemas["WebhookWithSecret"];
export type Order = Schemas["Order"];
export type Quote = Schemas["Quote"];
export type DeliveredPhoto = Schemas["DeliveredPhoto"];
export type Polygon = Schemas["Polygon"];
export type ListMeta = Schemas["ListMeta"];
export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

/**
 * Creating a mission with the field names of the SDK preview in the spec (`requiredImages`); the
 * SDK sends the REST names (`required_images`).
 */
export interface CreateMissionInput {
  title: string;
  description?: string;
  /** GeoJSON Polygon (RFC 7946), [lng, lat] positions, closed rings. */
  bounds: Polygon;
  requiredImages: number;
  qa?: Schemas["QaSettings"];
}

export type UpdateMissionInput = Partial<CreateMissionInput>;

/** The REST body for a mission from the preview names. */
export function missionBody(input: UpdateMissionInput): Record<string, unknown> {
  const { requiredImages, ...rest } = input;
  return { ...rest, ...(requiredImages === undefined ? {} : { required_images: requiredImages }) };
}
