// What the field page keeps on the phone, in IndexedDB (through `idb`): the last lists of tasks
// and missions near the zoomer with when they were fetched (shown as "as of 14:32" without
// signal), the last place the zoomer stood, and the outbox of photos not yet judged by the server.
// The lists and the place belong to the zoomer who fetched them (`owner`): another zoomer on the
// same phone never reads them, and sign-out or a session that ran out clears them. Each outbox
// photo records its owner (lib/field/outbox-owner.ts). The page also writes who is signed in
// (`session`), so the service worker sends only that zoomer's photos.
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import { stateOnOpen, type OutboxEntry } from "./outbox-state";

export type NearbyKind = "tasks" | "missions";

export interface SavedNearby<T> {
  kind: NearbyKind;
  /** The zoomer who fetched it (`usr_…`). */
  owner?: string;
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

type OwnedPosition = SavedPosition & { owner?: string };

interface FieldDb extends DBSchema {
  nearby: { key: NearbyKind; value: SavedNearby<unknown> };
  place: { key: "last"; value: OwnedPosition };
  outbox: { key: string; value: OutboxEntry; indexes: { "by-created": string } };
  session: { key: "current"; value: { owner: string | null } };
}

const DB_NAME = "photo-missions-field";
let db: Promise<IDBPDatabase<FieldDb>> | null = null;

function open(): Promise<IDBPDatabase<FieldDb>> {
  db ??= openDB<FieldDb>(DB_NAME, 2, {
    upgrade(database, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        database.createObjectStore("nearby", { keyPath: "kind" });
        database.createObjectStore("place");
        database.createObjectStore("outbox", { keyPath: "id" }).createIndex("by-created", "createdAt");
      }
      if (oldVersion < 2) {
        database.createObjectStore("session");
        // Lists kept before they recorded their zoomer could be anyone's.
        void tx.objectStore("nearby").clear();
        void tx.objectStore("place").clear();
      }
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

export async function saveNearby<T>(saved: SavedNearby<T> & { owner: string }): Promise<void> {
  await (await open()).put("nearby", saved);
}

/** The list this zoomer kept; another zoomer's is not theirs to read. */
export async function loadNearby<T>(kind: NearbyKind, owner: string): Promise<SavedNearby<T> | null> {
  const saved = (await (await open()).get("nearby", kind)) as SavedNearby<T> | undefined;
  return saved?.owner === owner ? saved : null;
}

export async function savePosition(position: SavedPosition, owner: string): Promise<void> {
  await (await open()).put("place", { lat: position.lat, lng: position.lng, source: position.source, owner }, "last");
}

export async function loadPosition(owner: string): Promise<SavedPosition | null> {
  const saved = await (await open()).get("place", "last");
  return saved?.owner === owner ? { lat: saved.lat, lng: saved.lng, source: saved.source } : null;
}

/** The lists and place kept for offline use: gone when their session ends (sign-out, expiry). */
export async function clearKeptLists(): Promise<void> {
  const database = await open();
  const tx = database.transaction(["nearby", "place"], "readwrite");
  await Promise.all([tx.objectStore("nearby").clear(), tx.objectStore("place").clear(), tx.done]);
}

/** Who is signed in on this page, for the service worker's Background Sync (null: nobody). */
export async function saveSessionOwner(owner: string | null): Promise<void> {
  await (await open()).put("session", { owner }, "current");
}

export async function loadSessionOwner(): Promise<string | null> {
  return (await (await open()).get("session", "current"))?.owner ?? null;
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
