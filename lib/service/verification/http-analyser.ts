// An image analyser behind HTTP, configured by the operator (ANALYSER_URL): the photo goes out as
// JSON, verdicts per analysis check come back. Its own file because it is I/O — the checks in
// ./checks stay pure and take any Analyser.
import { z } from "zod";
import { duration, type Analyser, type AnalysisCheckName, type AnalysisInput, type AnalysisVerdict } from "./checks";

const VerdictSchema = z
  .looseObject({
    score: z.number().min(0).max(1),
    passed: z.boolean(),
    value: z.unknown().optional(),
  })
  .transform(({ score, passed, value, ...extra }): AnalysisVerdict => ({ score, passed, value, extra }));

const AnalyserResponseSchema = z.object({
  results: z.object({
    obstruction: VerdictSchema.optional(),
    minimum_crowd: VerdictSchema.optional(),
    brand_match: VerdictSchema.optional(),
  }),
});

export interface HttpAnalyserOptions {
  /** Where to POST; configured by the operator, never by a partner. */
  url: string;
  timeoutMs?: number;
  name?: string;
  /** e.g. an authorization header for the analysis service. */
  headers?: Record<string, string>;
}

/**
 * An analyser behind HTTP. Request: POST JSON `{ image_base64, checks, brand?, crowd? }`.
 * Response: `{ results: { <check>: { score: 0–1, passed: boolean, value?, …any other fields } } }`;
 * the other fields of each result are kept in the check's `extra`. A non-2xx answer, a body that
 * does not match, a redirect or no answer within the timeout is an error (→ not evaluated).
 */
export class HttpAnalyser implements Analyser {
  readonly name: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpAnalyserOptions) {
    this.name = options.name ?? new URL(options.url).host;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async analyse(input: AnalysisInput): Promise<Partial<Record<AnalysisCheckName, AnalysisVerdict>>> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const response = await fetch(this.options.url, {
      method: "POST",
      headers: { ...this.options.headers, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        image_base64: input.image.toString("base64"),
        checks: input.checks,
        ...(input.brand !== undefined ? { brand: input.brand } : {}),
        ...(input.crowd !== undefined ? { crowd: input.crowd } : {}),
      }),
      signal: input.signal ? AbortSignal.any([timeout, input.signal]) : timeout,
      // An analysis service that redirects is misconfigured; following it could post the image elsewhere.
      redirect: "error",
    }).catch((error: unknown) => {
      if (error instanceof Error && error.name === "TimeoutError") throw new Error(`no answer within ${duration(this.timeoutMs)}`);
      throw error;
    });
    if (!response.ok) throw new Error(`the analysis service answered ${response.status}`);
    const body: unknown = await response.json().catch(() => {
      throw new Error("the analysis service's answer was not JSON");
    });
    const parsed = AnalyserResponseSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`the analysis service's answer was not understood${issue ? ` (${issue.path.join(".")}: ${issue.message})` : ""}`);
    }
    return parsed.data.results;
  }
}
