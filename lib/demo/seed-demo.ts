// The demo's seed: on the first start of the embedded default, a demo organisation with a dashboard
// user and an opening scene of missions in Florence, a second organisation where the demo user is
// a viewer, a simulated zoomer, and the demo partner's own credentials (an OAuth client that
// publishes missions and an API key that places orders), which the simulator then uses through the
// real API. Later starts return what the first one made, adding what an older seed lacked.
import { eq } from "drizzle-orm";
import { serviceSecrets } from "@/lib/db/schema";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { createApiKey } from "@/lib/service/accounts/create-api-key";
import { createClient } from "@/lib/service/accounts/create-client";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createUser } from "@/lib/service/accounts/create-user";
import { createZoomer } from "@/lib/service/accounts/create-zoomer";
import type { ServiceContext } from "@/lib/service/context";
import { createMission } from "@/lib/service/missions/create-mission";
import type { ClientCredentials, DemoCredentials } from "./demo-api";
import { DEMO_USER } from "./demo-user";

export { DEMO_USER };

const ring = (points: [number, number][]): PolygonGeometry => ({ type: "Polygon", coordinates: [[...points, points[0] ?? [0, 0]]] });

/** The opening scene: four missions, with how many photos the first burst sends to each. */
export const DEMO_MISSIONS = [
  {
    title: "Duomo — façade and Piazza del Duomo",
    description: "Street-level views of the cathedral front and the baptistery doors, any angle.",
    bounds: ring([
      [11.2546, 43.7726],
      [11.2573, 43.7722],
      [11.258, 43.7735],
      [11.2563, 43.7745],
      [11.2544, 43.7738],
    ]),
    required_images: 40,
    burst: 14,
  },
  {
    title: "Ponte Vecchio — both banks",
    description: "The bridge from Lungarno degli Archibusieri and from Borgo San Jacopo.",
    bounds: ring([
      [11.2519, 43.7674],
      [11.2547, 43.7671],
      [11.255, 43.7684],
      [11.2522, 43.7688],
    ]),
    required_images: 25,
    burst: 10,
  },
  {
    title: "Piazza della Signoria — market day",
    description: "Overview shots of the square and the Loggia dei Lanzi.",
    bounds: ring([
      [11.2546, 43.7688],
      [11.2567, 43.7686],
      [11.2569, 43.7702],
      [11.2548, 43.7703],
    ]),
    required_images: 60,
    burst: 8,
  },
  {
    title: "Santa Croce — entrance",
    description: "The basilica entrance and the statue of Dante.",
    bounds: ring([
      [11.2609, 43.7681],
      [11.2634, 43.768],
      [11.2636, 43.7694],
      [11.2611, 43.7695],
    ]),
    required_images: 6,
    burst: 9,
  },
] as const;

export interface DemoState {
  orgId: string;
  /** The opening scene's missions (the simulator then works from the organisation's active missions). */
  missionIds: string[];
  zoomer: ClientCredentials;
  /** The simulated partner's OAuth client (missions:read, missions:write, submissions:read). */
  partner: ClientCredentials;
  /** The simulated partner's order-interface API key. */
  apiKey: string;
}

const STATE_KEY = "demo-state";

async function loadState(ctx: Pick<ServiceContext, "db" | "secretBox">): Promise<Partial<DemoState> | null> {
  const [row] = await ctx.db.select().from(serviceSecrets).where(eq(serviceSecrets.name, STATE_KEY)).limit(1);
  // Sealed: it holds the simulated zoomer's and partner's secrets.
  return row ? (JSON.parse(ctx.secretBox.open(row.value)) as Partial<DemoState>) : null;
}

export function demoCredentials(state: DemoState): DemoCredentials {
  return { zoomer: state.zoomer, partner: state.partner, apiKey: state.apiKey };
}

/** The partner's credentials, for a state seeded before the simulator acted as the partner. */
async function completeState(ctx: Pick<ServiceContext, "db">, state: Partial<DemoState> & Pick<DemoState, "orgId" | "zoomer">): Promise<DemoState> {
  const partner =
    state.partner ??
    (await createClient({
      db: ctx.db,
      kind: "partner",
      orgId: state.orgId,
      name: "Demo partner (simulated)",
      scopes: ["missions:read", "missions:write", "submissions:read"],
    }));
  const apiKey = state.apiKey ?? (await createApiKey({ db: ctx.db, orgId: state.orgId, name: "Demo partner orders (simulated)" })).api_key;
  return {
    orgId: state.orgId,
    missionIds: state.missionIds ?? [],
    zoomer: state.zoomer,
    partner: { client_id: partner.client_id, client_secret: partner.client_secret },
    apiKey,
  };
}

/** Creates the demo organisation once; later starts return what the first one made. */
export async function seedDemo(ctx: Pick<ServiceContext, "db" | "secretBox">): Promise<{ state: DemoState; fresh: boolean }> {
  const existing = await loadState(ctx);
  if (existing?.orgId && existing.zoomer) {
    if (existing.partner && existing.apiKey) return { state: existing as DemoState, fresh: false };
    const state = await completeState(ctx, { ...existing, orgId: existing.orgId, zoomer: existing.zoomer });
    // Kept only for the demo simulator of this database; never shown by the API.
    await ctx.db
      .update(serviceSecrets)
      .set({ value: ctx.secretBox.seal(JSON.stringify(state)) })
      .where(eq(serviceSecrets.name, STATE_KEY));
    return { state, fresh: false };
  }
  const org = await createOrganisation({ db: ctx.db, name: "Demo Partner — Florence", plan: "business" });
  await createUser({ db: ctx.db, orgId: org.id, email: DEMO_USER.email, password: DEMO_USER.password, role: "admin", name: DEMO_USER.name });
  const missionIds: string[] = [];
  for (const m of DEMO_MISSIONS) {
    const mission = await createMission({
      db: ctx.db,
      orgId: org.id,
      input: { title: m.title, description: m.description, bounds: m.bounds, required_images: m.required_images },
    });
    missionIds.push(mission.id);
  }
  // A second organisation where the demo user is only a viewer: shows switching between
  // organisations and what a viewer may not do.
  const agency = await createOrganisation({ db: ctx.db, name: "Demo Agency — Siena", plan: "developer" });
  await createUser({ db: ctx.db, orgId: agency.id, email: DEMO_USER.email, password: DEMO_USER.password, role: "viewer", name: DEMO_USER.name });
  await createMission({
    db: ctx.db,
    orgId: agency.id,
    input: {
      title: "Piazza del Campo — market stalls",
      description: "Stalls and storefronts around the square, one photo each.",
      bounds: ring([
        [11.3298, 43.3172],
        [11.3335, 43.3172],
        [11.3335, 43.3194],
        [11.3298, 43.3194],
      ]),
      required_images: 15,
    },
  });
  const zoomer = await createZoomer({ db: ctx.db, name: "Demo zoomer (simulated)" });
  const state = await completeState(ctx, { orgId: org.id, missionIds, zoomer: { client_id: zoomer.client_id, client_secret: zoomer.client_secret } });
  // Kept only for the demo simulator of this embedded database; never shown by the API.
  await ctx.db
    .insert(serviceSecrets)
    .values({ name: STATE_KEY, value: ctx.secretBox.seal(JSON.stringify(state)) })
    .onConflictDoNothing();
  const saved = await loadState(ctx);
  return { state: saved?.partner && saved.apiKey ? (saved as DemoState) : state, fresh: true };
}
