// The always-alive rule for missions: the simulated partner keeps a few missions active at all
// times. When one completes (or the retention sweep removed it), it publishes a new one through
// the mission API at a Florence place that has no live mission — a different shape, size and
// target each time — so the Active tab, the map and the field page always have something going on.
import type { Mission } from "@/lib/schemas/mission";
import type { DemoApi } from "./demo-api";
import { demoMissionAt, FLORENCE_PLACES } from "./florence-places";

export const DEMO_ACTIVE_MISSIONS = 4;

/** The demo organisation's active missions of its own (not dispatched from orders), newest first. */
export async function activeDemoMissions(api: DemoApi): Promise<Mission[]> {
  const list = await api.expect<{ data: Mission[] }>("partner", "GET", "/api/v1/missions?status=active&per_page=100");
  return list.data.filter((m) => m.order_id === null);
}

const placeOf = (mission: Pick<Mission, "title">) => FLORENCE_PLACES.find((p) => mission.title.startsWith(`${p.name} — `));

/**
 * Publishes missions until `target` are active; returns the active missions (the new ones
 * included) and what it published.
 */
export async function keepMissionsAlive(
  api: DemoApi,
  random: () => number,
  { target = DEMO_ACTIVE_MISSIONS }: { target?: number } = {},
): Promise<{ active: Mission[]; published: Mission[] }> {
  const active = await activeDemoMissions(api);
  const published: Mission[] = [];
  while (active.length < target) {
    const taken = new Set(active.map((m) => placeOf(m)?.key));
    const free = FLORENCE_PLACES.filter((p) => !taken.has(p.key));
    const place = free[Math.floor(random() * free.length)];
    if (!place) break;
    const draft = demoMissionAt(place, random);
    const mission = await api.expect<Mission>("partner", "POST", "/api/v1/missions", {
      title: draft.title,
      description: draft.description,
      bounds: draft.bounds,
      required_images: draft.required_images,
    });
    active.unshift(mission);
    published.push(mission);
  }
  return { active, published };
}
