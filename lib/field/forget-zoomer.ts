// Sign-out on the phone: the kept lists, place and outbox go, the resumable uploads' addresses
// too, and so does the field page's HTML the service worker kept, so the next person on this phone
// starts from the sign-in page.
import { clearDeviceStore } from "./device-store";
import { FIELD_PAGES_CACHE } from "./offline-caches";

/** tus-js-client keeps each upload's URL in localStorage under `tus::<fingerprint>::…`. */
const TUS_KEY_PREFIX = "tus::photo-missions-field:";

function forgetUploadAddresses(): void {
  if (typeof localStorage === "undefined") return;
  for (const key of Object.keys(localStorage)) if (key.startsWith(TUS_KEY_PREFIX)) localStorage.removeItem(key);
}

export async function forgetThisZoomer(): Promise<void> {
  forgetUploadAddresses();
  await Promise.allSettled([clearDeviceStore(), typeof caches === "undefined" ? Promise.resolve(true) : caches.delete(FIELD_PAGES_CACHE)]);
}
