// What the map's search box says when it has nothing to offer, in words a partner can act on: the
// offline list knows cities and towns only (the bundled GeoNames names), so a landmark or a street
// is found through a geocoder when the operator configured one, else by its coordinates.

export function noResultsMessage(query: string, options: { geocoder: boolean; geocoderFailed: boolean }): string {
  const what = `Nothing called “${query}” was found.`;
  if (options.geocoder && !options.geocoderFailed) return `${what} Try another spelling, or type coordinates as lat, lng.`;
  const why = options.geocoder ? "The address search is unavailable just now, so only" : "Only";
  return `${what} ${why} cities and towns are searched here; for a landmark or a street, type its coordinates as lat, lng (e.g. 43.7731, 11.256).`;
}

/** The search box's hint: what can be typed. */
export function searchPlaceholder(geocoder: boolean): string {
  return geocoder ? "Place, address or lat, lng" : "City, town or lat, lng";
}
