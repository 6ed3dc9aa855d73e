// A dashboard to measure in the browser: an embedded database seeded in DATA_DIR before the app
// starts (PGlite is one process: the runner writes it, closes it, then `next start` opens it) with
// an organisation, a user who signs in with a password, and missions holding N located
// submissions each, inserted directly in batches (going through intake for 100,000 submissions
// would take hours and measure something else).
import { openDatabase } from "@/lib/db/client";
import { submissions, SUBMISSION_STATUSES, type SubmissionStatus } from "@/lib/db/schema";
import { polygonBbox, type PolygonGeometry } from "@/lib/geo/polygon";
import { createId } from "@/lib/ids/create-id";
import { createOrganisation } from "@/lib/service/accounts/create-organisation";
import { createUser } from "@/lib/service/accounts/create-user";
import { createZoomer } from "@/lib/service/accounts/create-zoomer";
import { createMission } from "@/lib/service/missions/create-mission";

export interface DashboardUser {
  email: string;
  password: string;
}

export interface SeededMission {
  id: string;
  /** Located submissions: every one is a point on the map. */
  submissions: number;
  bounds: PolygonGeometry;
  /** [west, south, east, north]: what the mission page's map first shows. */
  bbox: [number, number, number, number];
}

export interface SeededDashboard {
  user: DashboardUser;
  missions: SeededMission[];
}

// A city-sized mission (about 6.5 km × 6.7 km over Florence): at 1280 × 800 it opens around zoom
// 13, below the cluster max zoom (14), so clusters and single points are both on screen.
const [WEST, SOUTH, EAST, NORTH] = [11.21, 43.74, 11.29, 43.8];
const BOUNDS: PolygonGeometry = {
  type: "Polygon",
  coordinates: [
    [
      [WEST, SOUTH],
      [EAST, SOUTH],
      [EAST, NORTH],
      [WEST, NORTH],
      [WEST, SOUTH],
    ],
  ],
};
// Roughly what a live mission holds: most approved, some waiting, some rejected.
const STATUS_WEIGHTS: Record<SubmissionStatus, number> = { received: 0.2, processing: 0.1, approved: 0.55, rejected: 0.15 };
const INSERT_BATCH = 1_000;
const SPREAD_MS = 30 * 24 * 3600_000;

/** mulberry32: the same points every run, so runs compare like with like. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pickStatus(r: number): SubmissionStatus {
  let acc = 0;
  for (const status of SUBMISSION_STATUSES) {
    acc += STATUS_WEIGHTS[status];
    if (r < acc) return status;
  }
  return "approved";
}

/** Seeds `dataDir` (fresh) with one user and one mission per entry of `sizes`. */
export async function seedDashboard(dataDir: string, sizes: number[], log: (message: string) => void): Promise<SeededDashboard> {
  const database = await openDatabase({ kind: "pglite", dataDir });
  try {
    const { db } = database;
    const user: DashboardUser = { email: "bench@example.com", password: "bench-password-not-secret" };
    const org = await createOrganisation({ db, name: "Benchmark partner" });
    await createUser({ db, orgId: org.id, email: user.email, password: user.password, role: "admin", name: "Benchmark" });
    const zoomer = await createZoomer({ db, name: "Benchmark zoomer" });
    const missions: SeededMission[] = [];
    for (const [index, size] of sizes.entries()) {
      const mission = await createMission({ db, orgId: org.id, input: { title: `Map benchmark (${size.toLocaleString("en-US")} submissions)`, bounds: BOUNDS, required_images: size } });
      const next = random(index + 1);
      const now = Date.now();
      const started = performance.now();
      for (let done = 0; done < size; done += INSERT_BATCH) {
        const rows: (typeof submissions.$inferInsert)[] = [];
        for (let i = done; i < Math.min(size, done + INSERT_BATCH); i++) {
          const status = pickStatus(next());
          const createdAt = new Date(now - Math.floor(next() * SPREAD_MS));
          rows.push({
            id: createId("submission"),
            missionId: mission.id,
            orgId: org.id,
            zoomerId: zoomer.id,
            status,
            lat: SOUTH + next() * (NORTH - SOUTH),
            lng: WEST + next() * (EAST - WEST),
            accuracyM: 5,
            capturedAt: createdAt,
            imageCount: 1,
            createdAt,
            decidedAt: status === "approved" || status === "rejected" ? createdAt : null,
          });
        }
        await db.insert(submissions).values(rows);
      }
      log(`seeded ${size.toLocaleString("en-US")} submissions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      missions.push({ id: mission.id, submissions: size, bounds: BOUNDS, bbox: polygonBbox(BOUNDS) });
    }
    return { user, missions };
  } finally {
    await database.close();
  }
}
