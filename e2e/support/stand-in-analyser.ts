// A stand-in photo analyser (the ANALYSER_URL contract: POST { checks, … } → { results }) that
// reports the given detections for obstruction and minimum_crowd, and an app started against it:
// the review specs draw their boxes from what it says, not from the local model's guesses.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startExtraServer, type ExtraServer } from "./extra-server";

export interface StandInDetection {
  label: string;
  score: number;
  box: number[];
}

export interface StandInVerdicts {
  /** The share of the view covered, as the obstruction check's value (passed below 0.3). */
  covered: number;
  /** The crowd level the minimum_crowd check reports ("low", "moderate", …). */
  crowdLevel: string;
}

/** Starts the stand-in on loopback and an extra app using it; `stop` ends both. */
export async function startAppWithStandInAnalyser(
  detections: StandInDetection[],
  { covered, crowdLevel }: StandInVerdicts,
): Promise<{ app: ExtraServer; stop: () => Promise<void> }> {
  const people = detections.filter((d) => d.label === "person");
  const analyser = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const asked = (JSON.parse(body) as { checks: string[] }).checks;
      const results: Record<string, unknown> = {};
      if (asked.includes("obstruction"))
        results.obstruction = { score: 1 - covered, passed: covered <= 0.3, value: covered, threshold: 0.3, detections, people_count: people.length };
      if (asked.includes("minimum_crowd")) {
        results.minimum_crowd = {
          score: 1,
          passed: true,
          value: `${people.length} people (${crowdLevel})`,
          threshold: "low",
          detections: people,
          people_count: people.length,
          level: crowdLevel,
        };
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((resolve) => analyser.listen(0, "127.0.0.1", resolve));
  const app = await startExtraServer({ ANALYSER_URL: `http://127.0.0.1:${(analyser.address() as AddressInfo).port}/analyse` });
  return {
    app,
    stop: async () => {
      await app.stop();
      await new Promise<void>((resolve) => analyser.close(() => resolve()));
    },
  };
}
