// The service's routes are declared once (zod + createRoute) and described by two documents:
// the public one (mission interface, field intake, CDN, webhooks, health) served to anyone at
// /api/v1/openapi.json, and the operator interface (/api/admin/v1/*) served only with the admin
// token at /api/admin/v1/openapi.json — an integrator has no use for it, and it maps the attack
// surface of the one credential that can do everything. Each keeps only the components, tags and
// security schemes its own operations use.

export interface OpenApiDocument {
  openapi: string;
  info: object;
  paths?: Record<string, object>;
  webhooks?: Record<string, object>;
  components?: object;
  tags?: { name: string; description?: string }[];
}

const OPERATION_KEYS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** Every `$ref` under a value, as "#/components/<kind>/<name>". */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") into.add(item);
      else collectRefs(item, into);
    }
  }
}

/** The document restricted to the paths `keep` accepts, without what only other paths used. */
export function restrictDocument(
  full: OpenApiDocument,
  keep: (path: string) => boolean,
  { withWebhooks, info = full.info }: { withWebhooks: boolean; info?: OpenApiDocument["info"] },
): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(full.paths ?? {}).filter(([path]) => keep(path)));
  const webhooks = withWebhooks ? full.webhooks : undefined;

  // Components reachable from what is kept, following refs through components themselves.
  const reachable = new Set<string>();
  collectRefs([paths, webhooks], reachable);
  const components = (full.components ?? {}) as Record<string, Record<string, unknown>>;
  for (let grown = true; grown;) {
    grown = false;
    for (const ref of [...reachable]) {
      const [, , kind = "", name = ""] = ref.split("/");
      const before = reachable.size;
      collectRefs(components[kind]?.[name], reachable);
      if (reachable.size > before) grown = true;
    }
  }
  const keptComponents: Record<string, Record<string, unknown>> = {};
  for (const [kind, entries] of Object.entries(components)) {
    if (kind === "securitySchemes") continue;
    const kept = Object.fromEntries(Object.entries(entries).filter(([name]) => reachable.has(`#/components/${kind}/${name}`)));
    if (Object.keys(kept).length > 0) keptComponents[kind] = kept;
  }

  const usedSchemes = new Set<string>();
  const usedTags = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      if (!OPERATION_KEYS.has(method) || typeof op !== "object" || op === null || Array.isArray(op)) continue;
      const { security = [], tags = [] } = op as { security?: Record<string, unknown>[]; tags?: string[] };
      for (const requirement of security) for (const name of Object.keys(requirement)) usedSchemes.add(name);
      for (const tag of tags) usedTags.add(tag);
    }
  }
  const schemes = Object.fromEntries(Object.entries(components.securitySchemes ?? {}).filter(([name]) => usedSchemes.has(name)));
  if (Object.keys(schemes).length > 0) keptComponents.securitySchemes = schemes;

  const rest: OpenApiDocument = { ...full };
  delete rest.webhooks;
  return {
    ...rest,
    info,
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: keptComponents,
    tags: (full.tags ?? []).filter((t) => usedTags.has(t.name)),
  };
}

export function splitDocuments(
  full: OpenApiDocument,
  operatorPrefix: string,
  operatorInfo: OpenApiDocument["info"],
): { public: OpenApiDocument; operator: OpenApiDocument } {
  const isOperator = (path: string) => path === operatorPrefix || path.startsWith(`${operatorPrefix}/`);
  return {
    public: restrictDocument(full, (path) => !isOperator(path), { withWebhooks: true }),
    operator: restrictDocument(full, isOperator, { withWebhooks: false, info: operatorInfo }),
  };
}
