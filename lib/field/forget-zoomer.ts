// When a zoomer's session ends on the phone (sign-out, or a session that ran out): the lists and
// the place kept for offline use go, and so does the field page's HTML the service worker kept,
// so the next person on this phone starts from the sign-in page and sees nothing of theirs. The
// zoomer's photos not yet judged stay, with their resumable uploads' addresses, and go out as
// theirs when they sign in again (lib/field/outbox.ts); their judged ones leave on sign-out.
import { clearKeptLists, saveSessionOwner } from "./device-store";
import { FIELD_PAGES_CACHE } from "./offline-caches";

/** Nobody is signed in on this page any more: nothing of the last session stays readable. */
export async function forgetSession(): Promise<void> {
  await Promise.allSettled([
    clearKeptLists(),
    saveSessionOwner(null),
    typeof caches === "undefined" ? Promise.resolve(true) : caches.delete(FIELD_PAGES_CACHE),
  ]);
}

/** Sign-out: the session is forgotten, and so are the zoomer's judged photos (`forgetJudged`). */
export async function forgetThisZoomer(forgetJudged: () => Promise<void>): Promise<void> {
  await Promise.allSettled([forgetSession(), forgetJudged()]);
}
