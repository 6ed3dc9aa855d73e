// Mission rows kept in memory on the embedded database, where this process is the only writer
// (PGlite's directory is locked to it), so a row can be served from memory until this process
// changes it. Every write to missions invalidates the row; a read that raced a write does not
// store what it read. With PostgreSQL other instances write too, so nothing is cached there.
import type { MissionRow } from "./serialize-mission";

export class MissionCache {
  private readonly rows = new Map<string, MissionRow>();
  private readonly versions = new Map<string, number>();

  constructor(
    readonly enabled: boolean,
    private readonly maxEntries = 10_000,
  ) {}

  get(id: string): MissionRow | undefined {
    return this.enabled ? this.rows.get(id) : undefined;
  }

  /** The version to hand back to `set`, taken before reading the row from the database. */
  version(id: string): number {
    return this.versions.get(id) ?? 0;
  }

  set(row: MissionRow, readAtVersion: number): void {
    if (!this.enabled || this.version(row.id) !== readAtVersion) return;
    if (this.rows.size >= this.maxEntries) this.rows.delete(this.rows.keys().next().value ?? "");
    this.rows.set(row.id, row);
  }

  invalidate(id: string): void {
    this.rows.delete(id);
    this.versions.set(id, this.version(id) + 1);
  }
}
