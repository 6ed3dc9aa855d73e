import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { CreateMissionSchema, MissionListQuerySchema, MissionSchema, UpdateMissionSchema } from "@/lib/schemas/mission";
import { cancelMission } from "@/lib/service/missions/cancel-mission";
import { createMission } from "@/lib/service/missions/create-mission";
import { getMissionJson } from "@/lib/service/missions/get-mission";
import { listMissions } from "@/lib/service/missions/list-missions";
import { updateMission } from "@/lib/service/missions/update-mission";
import { authenticate, callerOrg } from "../middleware/authenticate";
import { jsonBody } from "../middleware/json-body";
import { sendJsonText } from "../send-json-text";
import { ListMetaSchema, PagingQuery, errorResponses, jsonResponse, security, MAX_ID_LENGTH } from "../openapi-common";
import type { AppEnv } from "../types";

const tags = ["Missions"];
const MissionIdParam = z.object({
  id: z
    .string()
    .max(MAX_ID_LENGTH)
    .openapi({ param: { name: "id", in: "path" }, example: "mission_01jd3m8k2b7yq4r6t9v0wxyzab" }),
});

const listRoute = createRoute({
  method: "get",
  path: "/missions",
  operationId: "listMissions",
  tags,
  summary: "List missions",
  description: "Missions of the caller's organisation, newest first. Active missions only unless `status` says otherwise.",
  security: security("missions:read"),
  middleware: [authenticate({ scope: "missions:read" })] as const,
  request: { query: MissionListQuerySchema.extend(PagingQuery) },
  responses: {
    200: jsonResponse(z.object({ data: z.array(MissionSchema), meta: ListMetaSchema }).openapi("MissionList"), "A page of missions."),
    ...errorResponses(422),
  },
});

const createMissionRoute = createRoute({
  method: "post",
  path: "/missions",
  operationId: "createMission",
  tags,
  summary: "Create a mission",
  description: "Publishes a mission: a polygon and how many photos it needs. Emits `mission.created`.",
  security: security("missions:write"),
  middleware: [authenticate({ scope: "missions:write" }), jsonBody] as const,
  request: { body: { content: { "application/json": { schema: CreateMissionSchema } }, required: true } },
  responses: {
    201: jsonResponse(MissionSchema, "The created mission."),
    ...errorResponses(400, 413, 415, 422),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/missions/{id}",
  operationId: "getMission",
  tags,
  summary: "Get a mission",
  description:
    "One mission of the caller's organisation, with its progress (submissions, approved images). Another organisation's mission is answered 404, like one that does not exist.",
  security: security("missions:read"),
  middleware: [authenticate({ scope: "missions:read" })] as const,
  request: { params: MissionIdParam },
  responses: { 200: jsonResponse(MissionSchema, "The mission."), ...errorResponses(404) },
});

const updateRoute = createRoute({
  method: "patch",
  path: "/missions/{id}",
  operationId: "updateMission",
  tags,
  summary: "Change a mission",
  description:
    "Changes title, description, bounds or required images of an active mission. Other fields are refused. A mission made for an order (`order_id` set) changes only with its order: 409 `mission_of_order`.",
  security: security("missions:write"),
  middleware: [authenticate({ scope: "missions:write" }), jsonBody] as const,
  request: {
    params: MissionIdParam,
    body: { content: { "application/json": { schema: UpdateMissionSchema } }, required: true },
  },
  responses: { 200: jsonResponse(MissionSchema, "The changed mission."), ...errorResponses(400, 404, 409, 413, 415, 422) },
});

const cancelRoute = createRoute({
  method: "post",
  path: "/missions/{id}/cancel",
  operationId: "cancelMission",
  tags,
  summary: "Cancel a mission",
  description:
    "Stops an active mission from taking submissions. Completed or cancelled missions answer 409; so does a mission made for an order (`mission_of_order`): cancel the order, or its location once late, instead.",
  security: security("missions:write"),
  middleware: [authenticate({ scope: "missions:write" })] as const,
  request: { params: MissionIdParam },
  responses: { 200: jsonResponse(MissionSchema, "The cancelled mission."), ...errorResponses(404, 409) },
});

export function registerMissionRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /missions – list the organisation's missions
  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const result = await listMissions({
      db: c.var.ctx.db,
      orgId: callerOrg(c),
      status: query.status,
      q: query.q,
      createdSince: query.created_since,
      updatedSince: query.updated_since,
      bbox: query.bbox,
      page: query.page,
      perPage: query.per_page,
    });
    return c.json(result, 200);
  });

  // POST /missions – create a mission
  app.openapi(createMissionRoute, async (c) => {
    const mission = await createMission({ db: c.var.ctx.db, orgId: callerOrg(c), input: c.req.valid("json") });
    c.var.ctx.wakeWorkers("webhooks");
    c.header("Location", `${c.var.ctx.config.publicOrigin}/api/v1/missions/${mission.id}`);
    return c.json(mission, 201);
  });

  // GET /missions/:id – one mission
  app.openapi(getRoute, async (c) => {
    const json = await getMissionJson(c.get("ctx"), callerOrg(c), c.req.valid("param").id);
    return sendJsonText(c, json, 200);
  });

  // PATCH /missions/:id – change an active mission
  app.openapi(updateRoute, async (c) => {
    const mission = await updateMission({
      ctx: c.var.ctx,
      orgId: callerOrg(c),
      id: c.req.valid("param").id,
      input: c.req.valid("json"),
    });
    return c.json(mission, 200);
  });

  // POST /missions/:id/cancel – cancel an active mission
  app.openapi(cancelRoute, async (c) => {
    const mission = await cancelMission({ ctx: c.var.ctx, orgId: callerOrg(c), id: c.req.valid("param").id });
    return c.json(mission, 200);
  });
}
