// The API reference's outline, read from the public OpenAPI document on the server: every tag with
// its operations (method, path, summary, scopes, parameters, body fields, responses) and every
// webhook event, as plain data the /docs page renders as HTML at once. The interactive console
// (Swagger UI) needs several seconds of the browser's time to process the whole document, so it is
// loaded only when asked for. Pure, with tests beside it.
import { z } from "zod";

const SchemaObject = z.looseObject({
  $ref: z.string().optional(),
  type: z.union([z.string(), z.array(z.string())]).optional(),
  format: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.unknown()).optional(),
  const: z.unknown().optional(),
  items: z.unknown().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
  oneOf: z.array(z.unknown()).optional(),
  anyOf: z.array(z.unknown()).optional(),
  allOf: z.array(z.unknown()).optional(),
});
type SchemaObject = z.infer<typeof SchemaObject>;

const Parameter = z.looseObject({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: z.unknown().optional(),
});

const Content = z.record(z.string(), z.looseObject({ schema: z.unknown().optional() }));

const Operation = z.looseObject({
  operationId: z.string().optional(),
  tags: z.array(z.string()).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(z.unknown()).optional(),
  requestBody: z.looseObject({ required: z.boolean().optional(), content: Content.optional() }).optional(),
  responses: z.record(z.string(), z.looseObject({ description: z.string().optional(), content: Content.optional() })).optional(),
});
type Operation = z.infer<typeof Operation>;

export const OpenApiDocumentSchema = z.looseObject({
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  webhooks: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocumentSchema>;

export interface OutlineField {
  name: string;
  /** Where a parameter goes (path, query, header); null for a body field. */
  in: string | null;
  type: string;
  required: boolean;
  description: string | null;
}

export interface OutlineOperation {
  /** Unique within the page, usable as an HTML id. */
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  /** "OAuth scope missions:write", "API key or OAuth scope orders:read", "none", … */
  auth: string[];
  parameters: OutlineField[];
  body: { contentTypes: string[]; schema: string | null; fields: OutlineField[] } | null;
  responses: { status: string; description: string; schema: string | null }[];
}

export interface OutlineTag {
  name: string;
  description: string | null;
  operations: OutlineOperation[];
}

export interface ApiOutline {
  title: string;
  version: string;
  description: string | null;
  tags: OutlineTag[];
  /** The webhook events, each as the POST our service sends. */
  webhooks: OutlineOperation[];
}

const METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"] as const;

const refName = (ref: string) => ref.split("/").pop() ?? ref;

function resolve(value: unknown, doc: OpenApiDocument): SchemaObject | null {
  const parsed = SchemaObject.safeParse(value);
  if (!parsed.success) return null;
  if (!parsed.data.$ref) return parsed.data;
  const target = doc.components?.schemas?.[refName(parsed.data.$ref)];
  const resolved = SchemaObject.safeParse(target);
  return resolved.success ? resolved.data : null;
}

/** A schema's type in a few words: "Mission", "string (date-time)", "Location[]", "active | completed". */
export function typeOf(value: unknown, depth = 0): string {
  const parsed = SchemaObject.safeParse(value);
  if (!parsed.success) return "any";
  const s = parsed.data;
  if (s.$ref) return refName(s.$ref);
  if (depth > 3) return "object";
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(" | ");
  const union = s.oneOf ?? s.anyOf;
  if (union) return [...new Set(union.map((u) => typeOf(u, depth + 1)))].join(" | ");
  if (s.allOf?.length === 1) return typeOf(s.allOf[0], depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const named = types.map((t) => (t === "array" ? `${typeOf(s.items, depth + 1)}[]` : t === "string" && s.format ? `string (${s.format})` : t));
  return named.length > 0 ? named.join(" | ") : s.properties ? "object" : "any";
}

/** The top-level fields of a body schema (following one $ref and merging allOf). */
function fieldsOf(value: unknown, doc: OpenApiDocument): OutlineField[] {
  const schema = resolve(value, doc);
  if (!schema) return [];
  const parts = [schema, ...(schema.allOf ?? []).map((part) => resolve(part, doc)).filter((part): part is SchemaObject => part !== null)];
  return parts.flatMap((part) =>
    Object.entries(part.properties ?? {}).map(([name, property]) => ({
      name,
      in: null,
      type: typeOf(property),
      required: part.required?.includes(name) ?? false,
      description: SchemaObject.safeParse(property).data?.description ?? resolve(property, doc)?.description ?? null,
    })),
  );
}

function schemaOf(content: z.infer<typeof Content> | undefined): string | null {
  const first = content ? Object.values(content)[0] : undefined;
  return first?.schema === undefined ? null : typeOf(first.schema);
}

function authOf(op: Operation): string[] {
  if (!op.security) return [];
  if (op.security.length === 0) return ["none"];
  return op.security.map(
    (requirement) =>
      Object.entries(requirement)
        .map(([scheme, scopes]) => {
          if (scheme === "oauth2") return scopes.length > 0 ? `OAuth scope ${scopes.join(", ")}` : "OAuth token";
          if (scheme === "apiKey") return "API key";
          return scheme;
        })
        .join(" and ") || "none",
  );
}

function outlineOperation(method: string, path: string, raw: unknown, doc: OpenApiDocument, id: string): OutlineOperation | null {
  const parsed = Operation.safeParse(raw);
  if (!parsed.success) return null;
  const op = parsed.data;
  const parameters = (op.parameters ?? []).flatMap((p) => {
    const param = Parameter.safeParse(p);
    if (!param.success) return [];
    const { name, required, description, schema } = param.data;
    return [{ name, in: param.data.in, type: typeOf(schema), required: required ?? false, description: description ?? null }];
  });
  const content = op.requestBody?.content;
  const firstBody = content ? Object.values(content)[0] : undefined;
  return {
    id,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? "",
    description: op.description ?? null,
    auth: authOf(op),
    parameters,
    body: content ? { contentTypes: Object.keys(content), schema: schemaOf(content), fields: fieldsOf(firstBody?.schema, doc) } : null,
    responses: Object.entries(op.responses ?? {}).map(([status, response]) => ({
      status,
      description: response.description ?? "",
      schema: schemaOf(response.content),
    })),
  };
}

/** The document as the /docs page shows it: tags in the document's order, operations in path order. */
export function outlineDocument(doc: OpenApiDocument): ApiOutline {
  const byTag = new Map<string, OutlineOperation[]>();
  let n = 0;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (!(method in item)) continue;
      const operation = outlineOperation(method, path, item[method], doc, `op-${++n}`);
      if (!operation) continue;
      const tag = Operation.safeParse(item[method]).data?.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
    }
  }
  const declared = (doc.tags ?? []).map((t) => t.name);
  const names = [...declared.filter((name) => byTag.has(name)), ...[...byTag.keys()].filter((name) => !declared.includes(name))];
  const webhooks = Object.entries(doc.webhooks ?? {}).flatMap(([event, item]) => {
    const operation = item.post === undefined ? null : outlineOperation("post", event, item.post, doc, `event-${event.replaceAll(".", "-")}`);
    return operation ? [operation] : [];
  });
  return {
    title: doc.info.title,
    version: doc.info.version,
    description: doc.info.description ?? null,
    tags: names.map((name) => ({ name, description: doc.tags?.find((t) => t.name === name)?.description ?? null, operations: byTag.get(name) ?? [] })),
    webhooks,
  };
}
