// The request-duration histogram, counted on every request's path. prom-client's own `observe`
// checks the labels, joins them into a string key and looks that up for each observation: about
// 1 µs a request, 5–6 % of a cached read's busy time (docs/benchmarks.md, issue 36). This subclass
// keeps each series in nested maps (method → route → status, no string made per request) and
// hands prom-client's registry the same values at scrape time, so `/metrics` is unchanged
// (request-durations.test.ts compares the exposition with prom-client's own Histogram).
import { Histogram } from "prom-client";

type Label = "method" | "route" | "status";
type Labels = Record<Label, string>;

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last slot is above every bound (+Inf only). */
  perBucket: number[];
  sum: number;
  count: number;
}

/** One value as prom-client's registry reads it: `labels` (le) and the series' `sharedLabels`. */
interface ExportedValue {
  labels: { le?: number | "+Inf" };
  sharedLabels: Labels;
  value: number;
  metricName: string;
  /** Buckets carry `null`, as prom-client's own (this histogram keeps no exemplars). */
  exemplar?: null;
}

/** What prom-client's registry reads from a metric at scrape time (its `getForPromString`). */
interface ExportedMetric {
  name: string;
  help: string;
  type: "histogram";
  aggregator: "sum";
  values: ExportedValue[];
}

export class RequestDurations extends Histogram<Label> {
  private readonly metricName: string;
  private readonly metricHelp: string;
  private readonly bounds: readonly number[];
  private series = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series in the order first seen: the exposition's order, as prom-client's. */
  private seen: Series[] = [];

  constructor(config: { name: string; help: string; buckets: number[]; registers: ConstructorParameters<typeof Histogram<Label>>[0]["registers"] }) {
    super({ ...config, labelNames: ["method", "route", "status"] });
    this.metricName = config.name;
    this.metricHelp = config.help;
    this.bounds = [...config.buckets].sort((a, b) => a - b);
  }

  /** Counts one request; `seconds` is its duration. */
  record(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.series.get(method);
    if (!byRoute) this.series.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, perBucket: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      byStatus.set(status, series);
      this.seen.push(series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] ?? Infinity)) bucket += 1;
    series.perBucket[bucket] = (series.perBucket[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  override reset(): void {
    this.series = new Map();
    this.seen = [];
  }

  /**
   * What the registry writes for `/metrics`: prom-client's registry reads a metric through its
   * `getForPromString` (Histogram's own reads the parent's series, which this class leaves empty),
   * and the inherited `get()` (getMetricsAsJSON) calls this one too.
   */
  async getForPromString(): Promise<ExportedMetric> {
    return { name: this.metricName, help: this.metricHelp, type: "histogram", aggregator: "sum", values: this.exported() };
  }

  private exported(): ExportedValue[] {
    const values: ExportedValue[] = [];
    const bucketName = `${this.metricName}_bucket`;
    for (const series of this.seen) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.perBucket[i] ?? 0;
        values.push({ labels: { le }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.metricName}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.metricName}_count` },
      );
    }
    return values;
  }
}
