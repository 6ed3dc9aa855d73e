// The service's network traffic: requests that came in through a socket (not the in-process calls
// of the demo simulator), counted by the app's first middleware, so work that can wait — the
// demo — waits while real callers are being served (lib/demo/when-quiet.ts).
export class TrafficMeter {
  private inFlight = 0;
  private lastEnded = -Infinity;

  started(): void {
    this.inFlight += 1;
  }

  ended(): void {
    this.inFlight -= 1;
    this.lastEnded = performance.now();
  }

  /** No network request in flight, and none ended within the last `ms`. */
  idleFor(ms: number): boolean {
    return this.inFlight === 0 && performance.now() - this.lastEnded >= ms;
  }
}
