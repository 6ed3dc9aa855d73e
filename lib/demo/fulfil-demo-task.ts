// The simulated zoomer's work on the demo partner's orders, through the real field tasks API:
// pick an open task of a live demo order, take it, stand 25–40 m from the target and shoot one
// photo with a compass direction and a capture time as a phone records them. Some first attempts
// face the wrong way, and a daylight task met at night is sometimes shot anyway, so verification
// fails them and retakes follow; the last retake is always done right, so locations get delivered.
import { log } from "@/lib/log";
import { bearingDeg } from "@/lib/geo/bearing";
import { sunAltitudeDeg } from "@/lib/geo/sun";
import type { Order } from "@/lib/schemas/order";
import { FACING_ANGLES } from "@/lib/service/verification/checks";
import { MAX_RETAKES } from "@/lib/service/orders/verify-assignment";
import type { DemoApi } from "./demo-api";
import { requiresDaylight } from "./demo-orders";
import { offsetPoint } from "./florence-places";
import { makePhoto } from "./make-photo";
import { DEMO_PHOTO_SIZE, DEVICES, submissionForm } from "./simulate-submission";

interface OrderTask {
  id: string;
  location_id: string;
  angle: string;
  attempt: number;
  status: string;
  instructions: string[];
}

interface FieldTask {
  id: string;
  angle: string;
  attempt: number;
  instructions: string[];
  location: { id: string; lat: number; lng: number };
  window: { starts_at: string; ends_at: string } | null;
}

export type TaskFlaw = "none" | "wrong_way" | "night";

export interface TaskOutcome {
  assignmentId: string;
  orderId: string;
  angle: string;
  attempt: number;
  flaw: TaskFlaw;
}

export interface FulfilOptions {
  /** Share of first attempts of facing angles shot facing away (retakes: a third of it, the last: none). */
  wrongWayRate?: number;
  /** Share of daylight tasks met at night that are shot anyway (first attempts only). */
  nightShotRate?: number;
  size?: { width: number; height: number };
}

/** The sun well above the horizon at the place, now (verification's daylight is above −0.833°). */
function daylightAt(lat: number, lng: number, at = new Date()): boolean {
  return sunAltitudeDeg(at, lat, lng) > 2;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Takes and shoots one open task of the given orders; null when none can be done now. */
export async function fulfilDemoTask(
  api: DemoApi,
  orders: Pick<Order, "id" | "status" | "locations">[],
  random: () => number,
  options: FulfilOptions = {},
): Promise<TaskOutcome | null> {
  const { wrongWayRate = 0.35, nightShotRate = 0.25, size = DEMO_PHOTO_SIZE } = options;
  for (const order of shuffled(
    orders.filter((o) => o.status === "in_progress" || o.status === "active"),
    random,
  )) {
    const list = await api.call<{ data: OrderTask[] }>("orders", "GET", `/api/orders/v1/orders/${order.id}/assignments?per_page=100`);
    if (!list.ok) continue;
    for (const task of shuffled(
      list.body.data.filter((t) => t.status === "open"),
      random,
    )) {
      const place = order.locations.find((l) => l.location_id === task.location_id)?.coordinates;
      if (!place) continue;
      const wantsDaylight = requiresDaylight(task.location_id) || task.instructions.some((i) => /daylight/i.test(i));
      let flaw: TaskFlaw = "none";
      if (wantsDaylight && !daylightAt(place.lat, place.lng)) {
        // A zoomer out at night: usually comes back in the day, sometimes tries anyway.
        if (task.attempt > 0 || random() >= nightShotRate) continue;
        flaw = "night";
      }
      const seen = await api.call<FieldTask>("zoomer", "GET", `/api/v1/field/assignments/${task.id}`);
      if (!seen.ok) continue;
      if (seen.body.window && Date.parse(seen.body.window.starts_at) > Date.now()) continue; // tomorrow's cycle: not yet
      const taken = await api.call<FieldTask>("zoomer", "POST", `/api/v1/field/assignments/${task.id}/take`);
      if (!taken.ok) continue; // someone else took it meanwhile
      const target = taken.body.location;
      const camera = offsetPoint(target, 25 + random() * 15, random() * 360);
      const facing = bearingDeg(camera, target);
      const facingAngle = (FACING_ANGLES as readonly string[]).includes(task.angle);
      const wrongRate = task.attempt === 0 ? wrongWayRate : task.attempt >= MAX_RETAKES ? 0 : wrongWayRate / 3;
      if (flaw === "none" && facingAngle && random() < wrongRate) flaw = "wrong_way";
      const direction = !facingAngle ? random() * 360 : flaw === "wrong_way" ? facing + 150 + random() * 60 : facing + (random() - 0.5) * 20;
      const device = DEVICES[Math.floor(random() * DEVICES.length)] ?? DEVICES[0];
      const bytes = await makePhoto({
        lat: camera.lat,
        lng: camera.lng,
        altitudeM: 48 + random() * 10,
        accuracyM: 3 + random() * 5,
        directionDeg: ((direction % 360) + 360) % 360,
        capturedAt: new Date(),
        make: device.make,
        model: device.model,
        width: size.width,
        height: size.height,
        seed: Math.floor(random() * 1e9),
      });
      const form = submissionForm([{ bytes, name: `IMG_${Math.floor(random() * 9000 + 1000)}.jpg` }]);
      const sent = await api.call("zoomer", "POST", `/api/v1/field/assignments/${task.id}/photo`, form);
      if (!sent.ok) {
        log.warn("demo task photo refused", { status: sent.status, body: JSON.stringify(sent.body).slice(0, 300) });
        await api.call("zoomer", "POST", `/api/v1/field/assignments/${task.id}/release`);
        continue;
      }
      return { assignmentId: task.id, orderId: order.id, angle: task.angle, attempt: task.attempt, flaw };
    }
  }
  return null;
}
