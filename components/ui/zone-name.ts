// A time zone as the reader's language names it ("hora de Europa central", "توقيت وسط أوروبا"),
// so a translated sentence does not carry an English city; null when this browser's Intl has no
// name for it there (then the page says the zone's city).

/** The zone's long generic name in `locale`, or null when Intl only knows it as an offset ("GMT+1"). */
export function zoneName(timeZone: string, locale: string, at: Date = new Date()): string | null {
  try {
    const name = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "longGeneric" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
    return name && !/^(GMT|UTC)([+−-]|$)/.test(name) ? name : null;
  } catch {
    return null; // a zone or locale this browser does not know
  }
}

/** "Europe/Rome" → "Rome": the zone's city, for English, where "Rome time" reads best. */
export function zoneCity(timeZone: string): string {
  const city = timeZone.split("/").pop()?.replaceAll("_", " ");
  return city && city !== timeZone ? city : timeZone;
}

/** Whether the reader's language names zones by their city ("Rome time") rather than by Intl's name. */
export const namesZonesByCity = (locale: string) => locale === "en" || locale.startsWith("en-");
