// The demo: on the first start of the embedded default, a demo organisation with a dashboard user
// and missions in Florence; then a simulated zoomer fills them through the real field API — a
// burst at first, then a photo every little while so the map keeps changing.
import { eq } from "drizzle-orm";
import type { Hono } from "hono";
import { serviceSecrets } from "@/lib/db/schema";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { log } from "@/lib/log";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createUser } from "@/lib/service/accounts/create-user";
import { createZoomer } from "@/lib/service/accounts/create-zoomer";
import type { ServiceContext } from "@/lib/service/context";
import { createMission } from "@/lib/service/missions/create-mission";
import { seededRandom } from "./seeded-random";
import { simulatePhoto, submissionForm } from "./simulate-submission";

import { DEMO_USER } from "./demo-user";

export { DEMO_USER };

const ring = (points: [number, number][]): PolygonGeometry => ({ type: "Polygon", coordinates: [[...points, points[0] ?? [0, 0]]] });

export const DEMO_MISSIONS = [
  {
    title: "Duomo — façade and Piazza del Duomo",
    description: "Street-level views of the cathedral front and the baptistery doors, any angle.",
    bounds: ring([[11.2546, 43.7726], [11.2573, 43.7722], [11.2580, 43.7735], [11.2563, 43.7745], [11.2544, 43.7738]]),
    required_images: 40,
    burst: 14,
  },
  {
    title: "Ponte Vecchio — both banks",
    description: "The bridge from Lungarno degli Archibusieri and from Borgo San Jacopo.",
    bounds: ring([[11.2519, 43.7674], [11.2547, 43.7671], [11.2550, 43.7684], [11.2522, 43.7688]]),
    required_images: 25,
    burst: 10,
  },
  {
    title: "Piazza della Signoria — market day",
    description: "Overview shots of the square and the Loggia dei Lanzi.",
    bounds: ring([[11.2546, 43.7688], [11.2567, 43.7686], [11.2569, 43.7702], [11.2548, 43.7703]]),
    required_images: 60,
    burst: 8,
  },
  {
    title: "Santa Croce — entrance",
    description: "The basilica entrance and the statue of Dante.",
    bounds: ring([[11.2609, 43.7681], [11.2634, 43.7680], [11.2636, 43.7694], [11.2611, 43.7695]]),
    required_images: 6,
    burst: 9,
  },
] as const;

interface DemoState {
  orgId: string;
  missionIds: string[];
  zoomer: { client_id: string; client_secret: string };
}

const STATE_KEY = "demo-state";

async function loadState(ctx: ServiceContext): Promise<DemoState | null> {
  const [row] = await ctx.db.select().from(serviceSecrets).where(eq(serviceSecrets.name, STATE_KEY)).limit(1);
  // Sealed: it holds the simulated zoomer's client secret.
  return row ? (JSON.parse(ctx.secretBox.open(row.value)) as DemoState) : null;
}

/** Creates the demo organisation once; later starts return what the first one made. */
export async function seedDemo(ctx: ServiceContext): Promise<{ state: DemoState; fresh: boolean }> {
  const existing = await loadState(ctx);
  if (existing) return { state: existing, fresh: false };
  const org = await createOrganisation({ db: ctx.db, name: "Demo Partner — Florence", plan: "business" });
  await createUser({ db: ctx.db, orgId: org.id, email: DEMO_USER.email, password: DEMO_USER.password, role: "admin", name: DEMO_USER.name });
  const missionIds: string[] = [];
  for (const m of DEMO_MISSIONS) {
    const mission = await createMission({ db: ctx.db, orgId: org.id, input: { title: m.title, description: m.description, bounds: m.bounds, required_images: m.required_images } });
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
  const state: DemoState = { orgId: org.id, missionIds, zoomer: { client_id: zoomer.client_id, client_secret: zoomer.client_secret } };
  // Kept only for the demo simulator of this embedded database; never shown by the API.
  await ctx.db.insert(serviceSecrets).values({ name: STATE_KEY, value: ctx.secretBox.seal(JSON.stringify(state)) }).onConflictDoNothing();
  return { state: (await loadState(ctx)) ?? state, fresh: true };
}

export interface DemoSimulator {
  stop(): Promise<void>;
  /** Resolves when the first burst has been submitted. */
  burstDone: Promise<void>;
}

/**
 * Submits simulated photos through the service's own HTTP app (the real field API: auth, rate
 * limits, multipart intake), first a burst per mission, then one every `intervalMs`.
 */
export function startDemoSimulator(
  app: Pick<Hono, "request">,
  state: DemoState,
  { burst, intervalMs = 20_000, seed = 2026 }: { burst: boolean; intervalMs?: number; seed?: number },
): DemoSimulator {
  const random = seededRandom(seed + (burst ? 0 : Date.now() % 1000));
  let stopped = false;
  let token: { value: string; expiresAt: number } | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const res = await app.request("/api/v1/auth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", ...state.zoomer }),
    });
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new Error(`demo zoomer cannot get a token (${res.status})`);
    token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
    return token.value;
  }

  async function submitOne(missionIndex: number): Promise<void> {
    const definition = DEMO_MISSIONS[missionIndex];
    const missionId = state.missionIds[missionIndex];
    if (!definition || !missionId) return;
    const count = random() < 0.25 ? 2 : 1;
    const photos = [];
    for (let i = 0; i < count; i++) photos.push(await simulatePhoto(definition.bounds, random));
    const form = submissionForm(photos.map((p, i) => ({ bytes: p.bytes, name: `IMG_${Math.floor(random() * 9000 + 1000)}_${i}.jpg` })), {
      angle: (["front", "entrance", "overview"] as const)[Math.floor(random() * 3)],
    });
    const res = await app.request(`/api/v1/missions/${missionId}/submissions`, { method: "POST", headers: { authorization: `Bearer ${await accessToken()}` }, body: form });
    // 409: the mission completed or was cancelled meanwhile — the simulator simply moves on.
    if (!res.ok && res.status !== 409) log.warn("demo submission refused", { status: res.status, body: (await res.text()).slice(0, 300) });
  }

  const burstDone = (async () => {
    if (!burst) return;
    for (const [index, definition] of DEMO_MISSIONS.entries()) {
      for (let i = 0; i < definition.burst && !stopped; i++) await submitOne(index).catch((e: unknown) => log.warn("demo submission failed", {}, e));
    }
  })();

  const tick = () => {
    if (stopped) return;
    // The first three missions keep receiving photos; the fourth is meant to finish in the burst.
    void submitOne(Math.floor(random() * 3))
      .catch((e: unknown) => log.warn("demo submission failed", {}, e))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs * (0.5 + random()));
      });
  };
  void burstDone.then(() => {
    if (!stopped) timer = setTimeout(tick, intervalMs);
  });

  return {
    burstDone,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await burstDone.catch(() => undefined);
    },
  };
}
