// The simulated zoomer's work on a mission: one submission of one or two photos through the field
// API, as the phone app sends it (some outside the area, blurry or dark, so QA rejects some).
import { log } from "@/lib/log";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";
import type { DemoApi } from "./demo-api";
import { DEMO_PHOTO_SIZE, simulatePhoto, submissionForm } from "./simulate-submission";

export type SubmitOutcome = "submitted" | "closed" | "refused";

export async function submitDemoPhoto(
  api: DemoApi,
  mission: { id: string; bounds: { type: "Polygon"; coordinates: number[][][] } },
  random: () => number,
  { size = DEMO_PHOTO_SIZE }: { size?: { width: number; height: number } } = {},
): Promise<SubmitOutcome> {
  const bounds = polygonFromApi(mission.bounds);
  const count = random() < 0.25 ? 2 : 1;
  const photos = [];
  for (let i = 0; i < count; i++) photos.push(await simulatePhoto(bounds, random, { size }));
  const form = submissionForm(
    photos.map((p, i) => ({ bytes: p.bytes, name: `IMG_${Math.floor(random() * 9000 + 1000)}_${i}.jpg` })),
    {
      angle: (["front", "entrance", "overview"] as const)[Math.floor(random() * 3)],
    },
  );
  const res = await api.call("zoomer", "POST", `/api/v1/missions/${mission.id}/submissions`, form);
  if (res.ok) return "submitted";
  // 409: the mission completed or was cancelled meanwhile; 404: the retention sweep removed it.
  if (res.status === 409 || res.status === 404) return "closed";
  log.warn("demo submission refused", { status: res.status, body: JSON.stringify(res.body).slice(0, 300) });
  return "refused";
}
