// What the map benchmark reads inside a page: the points-drawn mark, and from the browser's own
// Resource and Navigation Timing when the points were asked for and arrived and when the map
// asked for its worker, plus the main thread's long tasks and two moments seen in the DOM: the
// map's canvas appearing (the map was constructed) and `data-map-state="ready"` (BaseMap sets it
// on MapLibre's `load`: style and basemap drawn; the bare page does the same). Installed with addInitScript before
// any page script runs; plain JavaScript text, because functions handed to Playwright are
// serialised with their source, and the bench's TypeScript transform adds helpers the page lacks.
import type { Page } from "@playwright/test";

export const PROBE_SCRIPT = `(() => {
  performance.setResourceTimingBufferSize(5000);
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // no Long Tasks API: longTaskMs stays 0
  }
  let canvasAt = null;
  let readyAt = null;
  const milestones = new MutationObserver(() => {
    if (canvasAt === null && document.querySelector(".maplibregl-canvas")) canvasAt = performance.now();
    if (readyAt === null && document.querySelector('[data-map-state="ready"]')) readyAt = performance.now();
    if (canvasAt !== null && readyAt !== null) milestones.disconnect();
  });
  milestones.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-map-state"] });
  const drawnAt = (mark, count) => {
    const entry = performance.getEntriesByName(mark).find((m) => m.detail && m.detail.count === count);
    return entry ? entry.startTime : null;
  };
  const firstResource = (part) => performance.getEntriesByType("resource").find((r) => r.name.includes(part));
  window.__mapBench = {
    drawnAt,
    collect(mark, count, pointsPart, workerPart) {
      const drawn = drawnAt(mark, count);
      const points = firstResource(pointsPart);
      const worker = firstResource(workerPart);
      const navigation = performance.getEntriesByType("navigation")[0];
      const before = longTasks.filter(([start]) => drawn !== null && start < drawn);
      const canvas = document.querySelector(".maplibregl-canvas");
      const box = canvas ? canvas.getBoundingClientRect() : null;
      return {
        drawnMs: drawn,
        documentFirstByteMs: navigation ? navigation.responseStart : null,
        domContentLoadedMs: navigation ? navigation.domContentLoadedEventEnd : null,
        pointsRequestedMs: points ? points.startTime : null,
        pointsFirstByteMs: points ? points.responseStart : null,
        pointsReceivedMs: points ? points.responseEnd : null,
        pointsTransferBytes: points ? points.transferSize : null,
        pointsEncodedBytes: points ? points.encodedBodySize : null,
        pointsDecodedBytes: points ? points.decodedBodySize : null,
        workerUrl: worker ? worker.name : null,
        workerRequestedMs: worker ? worker.startTime : null,
        canvasCreatedMs: canvasAt,
        mapReadyMs: readyAt,
        longTaskMs: before.reduce((sum, [, duration]) => sum + duration, 0),
        longTasks: before.length,
        canvas: box ? { width: Math.round(box.width), height: Math.round(box.height) } : null,
        devicePixelRatio: window.devicePixelRatio,
      };
    },
  };
})();`;

export interface PageSample {
  drawnMs: number;
  documentFirstByteMs: number | null;
  domContentLoadedMs: number | null;
  pointsRequestedMs: number | null;
  pointsFirstByteMs: number | null;
  pointsReceivedMs: number | null;
  pointsTransferBytes: number | null;
  pointsEncodedBytes: number | null;
  pointsDecodedBytes: number | null;
  workerUrl: string | null;
  workerRequestedMs: number | null;
  canvasCreatedMs: number | null;
  mapReadyMs: number | null;
  longTaskMs: number;
  longTasks: number;
  canvas: { width: number; height: number } | null;
  devicePixelRatio: number;
}

export interface ProbeTarget {
  mark: string;
  count: number;
  /** A part of the points request's URL, to find it among the page's resources. */
  pointsPart: string;
  workerPart: string;
}

/** Waits until the mark for `count` points exists (the mark carries its own time; polling only notices it). */
export async function waitForDrawn(page: Page, target: ProbeTarget, timeoutMs: number): Promise<void> {
  // A function, not a string: Playwright evaluates a string predicate with `new Function` in the
  // page, which the pages' Content-Security-Policy (no 'unsafe-eval') refuses.
  await page.waitForFunction(
    ([mark, count]) => (window as unknown as { __mapBench: { drawnAt(mark: string, count: number): number | null } }).__mapBench.drawnAt(mark, count) !== null,
    [target.mark, target.count] as const,
    { polling: 100, timeout: timeoutMs },
  );
}

export async function collectSample(page: Page, target: ProbeTarget): Promise<PageSample> {
  const args = [target.mark, target.count, target.pointsPart, target.workerPart].map((a) => JSON.stringify(a)).join(", ");
  const sample = (await page.evaluate(`window.__mapBench.collect(${args})`)) as PageSample & { drawnMs: number | null };
  if (sample.drawnMs === null) throw new Error(`no ${target.mark} mark for ${target.count} points`);
  return { ...sample, drawnMs: sample.drawnMs };
}
