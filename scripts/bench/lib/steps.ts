// Step-by-step timing of a few extra, diagnostic passes: where a subject's time goes. Wall time
// and CPU time (user + system of the whole process, so libvips' and libuv's threads count) per
// step; the steps are awaited one after the other, so a step's CPU delta is that step's work,
// while its wall time also holds any wait for a CPU that another process had. Each step's figure
// is the median over passes, so one burst of another process's work does not skew it.
import { fmt } from "./file-report";
import { median } from "./rounds";

type Totals<K> = Map<K, { wall: number; cpu: number }>;

export interface StepCost<K extends string = string> {
  step: K;
  /** Mean seconds per file. */
  wall: number;
  cpu: number;
}

export class StepTimer<K extends string> {
  private totals: Totals<K> = new Map();
  private readonly passes: Totals<K>[] = [];

  async time<T>(step: K, work: () => Promise<T> | T): Promise<T> {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const value = await work();
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const total = this.totals.get(step) ?? { wall: 0, cpu: 0 };
    total.wall += wall;
    total.cpu += (used.user + used.system) / 1e6;
    this.totals.set(step, total);
    return value;
  }

  /** Closes a pass over all files. */
  endPass(): void {
    this.passes.push(this.totals);
    this.totals = new Map();
  }

  /** Mean per file of the median pass, in the order given (steps never timed count as zero). */
  perFile(steps: readonly K[], files: number): StepCost<K>[] {
    const per = (step: K, pick: "wall" | "cpu") => median(this.passes.map((pass) => pass.get(step)?.[pick] ?? 0)) / files;
    return steps.map((step) => ({ step, wall: per(step, "wall"), cpu: per(step, "cpu") }));
  }
}

/** Rows "| label | wall ms | CPU ms | CPU share |" for the steps that make up `of`. */
export function stepRows<K extends string>(costs: StepCost<K>[], labels: Record<K, string>, of: readonly K[]): string[] {
  const cpuTotal = costs.filter((c) => of.includes(c.step)).reduce((sum, c) => sum + c.cpu, 0);
  return costs.map((c) => {
    const share = of.includes(c.step) && cpuTotal > 0 ? `${fmt((c.cpu / cpuTotal) * 100, 1)}%` : "–";
    return `| ${labels[c.step]} | ${fmt(c.wall * 1000, 3)} | ${fmt(c.cpu * 1000, 3)} | ${share} |`;
  });
}

export const sumOf = <K extends string>(costs: StepCost<K>[], of: readonly K[], pick: "wall" | "cpu") =>
  costs.filter((c) => of.includes(c.step)).reduce((sum, c) => sum + c[pick], 0);
