// The local vision analyser on real photos (fixtures/, labelled by hand, sources in its README):
// the model runs in a worker thread, shared by the tests of this file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAnalysisChecks } from "../checks";
import { blurFaces } from "@/lib/photos/blur-faces";
import { DEFAULT_PASSES, ObjectDetector, peopleFinder, prepareModelInput } from "./object-detector";
import { VisionAnalyser } from "./vision-analyser";

const analyser = new VisionAnalyser({ workers: 1 });
afterAll(() => analyser.close());
const photo = (file: string) => readFileSync(join(import.meta.dirname, "fixtures", file));
// The model loads in ≈2 s and reads a photo in ≈0.5 s on an idle core; a loaded CI machine is slower.
const TIMEOUT_MS = 90_000;

describe("VisionAnalyser", { timeout: TIMEOUT_MS }, () => {
  it("fails a photo of an entrance hidden behind a bicycle, naming it, with boxes for the review page", async () => {
    const out = await runAnalysisChecks(
      analyser,
      { image: photo("street-bicycle-dog.jpg"), checks: ["obstruction"], angle: "entrance" },
      { timeoutMs: TIMEOUT_MS },
    );
    expect(out.obstruction).toMatchObject({ status: "failed", threshold: "at most 30 % of the part of the frame toward the target covered" });
    expect(Number(out.obstruction?.value)).toBeGreaterThan(0.3);
    expect(out.obstruction?.instruction).toMatch(/^A bicycle (covers|and .+ cover) the view: (step to the (left|right)|move closer)/);
    const detections = out.obstruction?.extra?.detections as { label: string; score: number; box: number[] }[];
    const bicycle = detections.find((d) => d.label === "bicycle");
    expect(bicycle?.box).toHaveLength(4);
    expect(bicycle?.box.every((v) => v >= 0 && v <= 1)).toBe(true);
  });

  it("fails a parked car filling the frame", async () => {
    const out = await runAnalysisChecks(analyser, { image: photo("road-parked-car.jpg"), checks: ["obstruction"], angle: "front" }, { timeoutMs: TIMEOUT_MS });
    expect(out.obstruction).toMatchObject({ status: "failed" });
    expect(out.obstruction?.message).toMatch(/^A parked car covers/);
  });

  it("passes an open view with nothing in the way, and counts nobody", async () => {
    const out = await runAnalysisChecks(
      analyser,
      { image: photo("hillside-empty.jpg"), checks: ["obstruction", "minimum_crowd"], crowd: "low", angle: "overview" },
      { timeoutMs: TIMEOUT_MS },
    );
    expect(out.obstruction).toMatchObject({ status: "passed", value: 0 });
    expect(out.minimum_crowd).toMatchObject({ status: "failed", value: "0 people (empty)", extra: { people_count: 0 } });
  });

  it("counts a group of eight as a moderate crowd", async () => {
    const out = await runAnalysisChecks(
      analyser,
      { image: photo("poolside-group.jpg"), checks: ["minimum_crowd"], crowd: "moderate" },
      { timeoutMs: TIMEOUT_MS },
    );
    expect(out.minimum_crowd).toMatchObject({ status: "passed", extra: { crowd_level: "moderate" } });
    const count = out.minimum_crowd?.extra?.people_count;
    expect(count).toBeGreaterThanOrEqual(6);
    expect(count).toBeLessThanOrEqual(8);
  });

  it("finds the faces of a group to blur in its preview", async () => {
    const out = await blurFaces(photo("poolside-group.jpg"), peopleFinder(analyser.detector));
    expect(out.whole).toBe(false);
    expect(out.faces).toBeGreaterThanOrEqual(6);
  });

  it("finds the small people of a busy shopping street in the tiles that the whole frame alone misses", async () => {
    // Labelled: 35 people, most of them far down the street (a few pixels tall in the whole frame).
    const image = photo("shopping-street-2.jpg");
    const people = (found: { label: string }[]) => found.filter((d) => d.label === "person").length;
    const wholeFrame = people(await analyser.detector.detectPrepared(await prepareModelInput(image, { passes: 1 })));
    const tiled = people(await analyser.detector.detect(image));
    expect(analyser.detector.passes).toBe(DEFAULT_PASSES);
    expect(wholeFrame).toBeLessThan(25);
    expect(tiled).toBeGreaterThanOrEqual(28);
    expect(tiled).toBeLessThanOrEqual(38);
    const out = await runAnalysisChecks(analyser, { image, checks: ["minimum_crowd"], crowd: "high" }, { timeoutMs: TIMEOUT_MS });
    expect(out.minimum_crowd).toMatchObject({ status: "passed", extra: { crowd_level: "busy", people_count: tiled } });
    // An obstruction-only check looks at the whole frame alone (OBSTRUCTION_PASSES): the same people as the single pass.
    const obstruction = await runAnalysisChecks(analyser, { image, checks: ["obstruction"], angle: "front" }, { timeoutMs: TIMEOUT_MS });
    expect(people(obstruction.obstruction?.extra?.detections as { label: string }[])).toBe(wholeFrame);
  });

  it("queues photos for its one worker, answers each, and fails those still waiting when closed", async () => {
    const detector = new ObjectDetector({ workers: 1 });
    const input = await prepareModelInput(photo("street-bicycle-dog.jpg"), { passes: 1 });
    expect(input.passes).toHaveLength(1);
    const [first, second] = await Promise.all([detector.detectPrepared(input), detector.detectPrepared(input)]);
    expect(first?.map((d) => d.label)).toContain("bicycle");
    expect(second).toEqual(first);
    // The expectations hold the rejections before close() rejects them, so none goes unhandled.
    const waiting = [detector.detectPrepared(input), detector.detectPrepared(input)].map((job) => expect(job).rejects.toThrow(/closed/));
    await detector.close();
    await Promise.all(waiting);
  });
});
