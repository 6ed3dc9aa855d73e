import { ZOOMER_SCOPES } from "@/lib/auth/scopes";
import type { Db } from "@/lib/db/client";
import { zoomers } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { createClient } from "./create-client";

/** A field contributor and the client credentials it submits photos with. */
export async function createZoomer({ db, name }: { db: Db; name: string }) {
  const id = createId("zoomer");
  return db.transaction(async (tx) => {
    await tx.insert(zoomers).values({ id, name });
    const credentials = await createClient({ db: tx, name: `zoomer ${name}`, scopes: ZOOMER_SCOPES, kind: "zoomer", zoomerId: id });
    return { id, name, client_id: credentials.client_id, client_secret: credentials.client_secret };
  });
}
