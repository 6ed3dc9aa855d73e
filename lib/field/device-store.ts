// What the field page keeps on the phone, in IndexedDB (through `idb`): the last lists of tasks
// and missions near the zoomer with when they were fetched (shown as "as of 14:32" without
// signal), the last place the zoomer stood, and the outbox of photos not yet judged by the server.
// All of it belongs to the signed-in zoomer: sign-out clears it (clearDeviceStore).
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import { stateOnOpen, type OutboxEntry } from "./outbox-state";

export type NearbyKind = "tasks" | "missions";

export interface SavedNearby<T> {
  kind: NearbyKind;
  /** The request the rows answered (the place and radius it asked about). */
  url: string;
  rows: T[];
  savedAt: string;
}

export interface SavedPosition {
  lat: number;
  lng: number;
  source: "gps" | "demo";
}

interface FieldDb extends DBSchema {
  nearby: { key: NearbyKind; value: SavedNearby<unknown> };
  place: { key: "last"; value: SavedPosition };
  outbox: { key: string; value: OutboxEntry; indexes: { "by-created": string } };
}

const DB_NAME = "photo-missions-field";
let db: Promise<IDBPDatabase<FieldDb>> | null = null;

function open(): Promise<IDBPDatabase<FieldDb>> {
  db ??= openDB<FieldDb>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore("nearby", { keyPath: "kind" });
      database.createObjectStore("place");
      database.createObjectStore("outbox", { keyPath: "id" }).createIndex("by-created", "createdAt");
    },
    // Another tab upgraded or deleted the database: let go, open again next time.
    blocking() {
      void db?.then((d) => d.close());
      db = null;
    },
    terminated() {
      db = null;
    },
  });
  return db;
}

export async function saveNearby<T>(saved: SavedNearby<T>): Promise<void> {
  await (await open()).put("nearby", saved);
}

export async function loadNearby<T>(kind: NearbyKind): Promise<SavedNearby<T> | null> {
  return ((await (await open()).get("nearby", kind)) as SavedNearby<T> | undefined) ?? null;
}

export async function savePosition(position: SavedPosition): Promise<void> {
  await (await open()).put("place", position, "last");
}

export async function loadPosition(): Promise<SavedPosition | null> {
  return (await (await open()).get("place", "last")) ?? null;
}

export async function forgetPosition(): Promise<void> {
  await (await open()).delete("place", "last");
}

/** Writes a photo (or its new state) to the outbox; resolves once it is on the device. */
export async function putOutboxEntry(entry: OutboxEntry): Promise<void> {
  await (await open()).put("outbox", entry);
}

export async function getOutboxEntry(id: string): Promise<OutboxEntry | null> {
  return (await (await open()).get("outbox", id)) ?? null;
}

/** The outbox, oldest first, with sends a closed tab cut off waiting again. */
export async function listOutbox(): Promise<OutboxEntry[]> {
  const entries = await (await open()).getAllFromIndex("outbox", "by-created");
  return entries.map((e) => ({ ...e, state: stateOnOpen(e.state) }));
}

export async function removeOutboxEntry(id: string): Promise<void> {
  await (await open()).delete("outbox", id);
}

/** Sign-out: nothing of this zoomer stays on the phone for the next one. */
export async function clearDeviceStore(): Promise<void> {
  const database = await open();
  const tx = database.transaction(["nearby", "place", "outbox"], "readwrite");
  await Promise.all([tx.objectStore("nearby").clear(), tx.objectStore("place").clear(), tx.objectStore("outbox").clear(), tx.done]);
}
