// Applies the committed migrations (the app also does this at start). Needs the database to be
// free: for the embedded PGlite, stop the app first.
import { openDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";

const database = await openDatabase(env.DATABASE_URL ? { kind: "postgres", url: env.DATABASE_URL } : { kind: "pglite", dataDir: env.DATA_DIR });
console.log(JSON.stringify({ migrated: true, database: database.kind }));
await database.close();
