// Sign-out on the phone: the kept lists, place and outbox go, and so does the field page's HTML
// the service worker kept, so the next person on this phone starts from the sign-in page.
import { clearDeviceStore } from "./device-store";
import { FIELD_PAGES_CACHE } from "./offline-caches";

export async function forgetThisZoomer(): Promise<void> {
  await Promise.allSettled([clearDeviceStore(), typeof caches === "undefined" ? Promise.resolve(true) : caches.delete(FIELD_PAGES_CACHE)]);
}
