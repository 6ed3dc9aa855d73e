// The analyser used out of the box: the local vision model for obstruction and crowds, the local
// OCR for brands, each asked only for the checks it evaluates, side by side.
import type { Analyser, AnalysisCheckName, AnalysisInput, AnalysisVerdict } from "./checks";

export interface ClosableAnalyser extends Analyser {
  close(): Promise<void>;
}

export class LocalAnalyser implements Analyser {
  readonly name: string;
  readonly evaluates: { checks: readonly AnalysisCheckName[]; what: string };
  readonly timeLimitMs: number;

  constructor(private readonly parts: ClosableAnalyser[]) {
    this.name = parts.map((p) => p.name).join(" + ");
    this.evaluates = {
      checks: parts.flatMap((p) => p.evaluates?.checks ?? []),
      what: parts
        .map((p) => p.evaluates?.what)
        .filter(Boolean)
        .join("; "),
    };
    this.timeLimitMs = Math.max(...parts.map((p) => p.timeLimitMs ?? 0));
  }

  async analyse(input: AnalysisInput): Promise<Partial<Record<AnalysisCheckName, AnalysisVerdict>>> {
    const settled = await Promise.allSettled(
      this.parts.map(async (part) => {
        const checks = input.checks.filter((c) => part.evaluates?.checks.includes(c) ?? true);
        return checks.length === 0 ? {} : part.analyse({ ...input, checks });
      }),
    );
    // One part failing leaves its checks out (not evaluated, said so); all failing is the error.
    const answers = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failure = settled.find((s) => s.status === "rejected");
    if (answers.length === 0 && failure) throw failure.reason;
    return Object.assign({}, ...answers) as Partial<Record<AnalysisCheckName, AnalysisVerdict>>;
  }

  async close(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.close()));
  }
}
