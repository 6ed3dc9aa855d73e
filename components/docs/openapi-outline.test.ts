import { describe, expect, it } from "vitest";
import { outlineDocument, typeOf, type OpenApiDocument } from "./openapi-outline";

const doc: OpenApiDocument = {
  info: { title: "Photo Missions API", version: "1.0.0", description: "Missions and orders." },
  tags: [{ name: "Authentication" }, { name: "Missions", description: "Geographic photo-collection jobs." }],
  paths: {
    "/api/v1/missions": {
      get: {
        tags: ["Missions"],
        summary: "List missions",
        security: [{ oauth2: ["missions:read"] }],
        parameters: [{ name: "status", in: "query", required: false, description: "Comma-separated statuses.", schema: { type: "string" } }],
        responses: { "200": { description: "A page of missions.", content: { "application/json": { schema: { $ref: "#/components/schemas/MissionList" } } } } },
      },
      post: {
        tags: ["Missions"],
        summary: "Create a mission",
        description: "Emits `mission.created`.",
        security: [{ oauth2: ["missions:write"] }],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/CreateMission" } } } },
        responses: { "201": { description: "The created mission." }, "422": { description: "Invalid." } },
      },
    },
    "/api/v1/auth/token": {
      post: { tags: ["Authentication"], summary: "Get an access token", security: [], responses: { "200": { description: "A token." } } },
    },
  },
  webhooks: { "mission.created": { post: { tags: ["Webhooks"], summary: "A mission was created", responses: { "200": { description: "Received." } } } } },
  components: {
    schemas: {
      CreateMission: {
        type: "object",
        required: ["title", "bounds"],
        properties: {
          title: { type: "string", description: "Shown to zoomers." },
          bounds: { $ref: "#/components/schemas/Polygon" },
          required_images: { type: ["integer", "null"] },
          tags: { type: "array", items: { type: "string" } },
        },
      },
    },
  },
};

describe("outlineDocument", () => {
  const outline = outlineDocument(doc);

  it("groups operations by tag in the document's tag order", () => {
    expect(outline.tags.map((t) => t.name)).toEqual(["Authentication", "Missions"]);
    expect(outline.tags[1]?.operations.map((o) => `${o.method} ${o.path}`)).toEqual(["GET /api/v1/missions", "POST /api/v1/missions"]);
    expect(outline.tags[1]?.description).toBe("Geographic photo-collection jobs.");
  });

  it("says how each operation authenticates, what it takes and what it answers", () => {
    const [list, create] = outline.tags[1]?.operations ?? [];
    expect(list?.auth).toEqual(["OAuth scope missions:read"]);
    expect(list?.parameters).toEqual([{ name: "status", in: "query", type: "string", required: false, description: "Comma-separated statuses." }]);
    expect(list?.responses).toEqual([{ status: "200", description: "A page of missions.", schema: "MissionList" }]);
    expect(create?.body?.schema).toBe("CreateMission");
    expect(create?.body?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["title", "string", true],
      ["bounds", "Polygon", true],
      ["required_images", "integer | null", false],
      ["tags", "string[]", false],
    ]);
    expect(outline.tags[0]?.operations[0]?.auth).toEqual(["none"]);
  });

  it("lists the webhook events", () => {
    expect(outline.webhooks.map((w) => [w.path, w.summary])).toEqual([["mission.created", "A mission was created"]]);
  });
});

describe("typeOf", () => {
  it("names a schema's type in a few words", () => {
    expect(typeOf({ type: "string", format: "date-time" })).toBe("string (date-time)");
    expect(typeOf({ enum: ["active", "completed"] })).toBe("active | completed");
    expect(typeOf({ type: "array", items: { $ref: "#/components/schemas/Location" } })).toBe("Location[]");
    expect(typeOf({ oneOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
  });
});
