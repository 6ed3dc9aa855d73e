// What the map's search box says when it has nothing to offer, in words a partner can act on: the
// offline list knows cities and towns only (the bundled GeoNames names), so a landmark or a street
// is found through a geocoder when the operator configured one, else by its coordinates.
// The words are dashboard.map.search.* in the reader's language; `t` is a translator over them.

export type SearchWords = (
  key: "nothing" | "tryAgain" | "onlyTowns" | "geocoderDown" | "placeholder" | "placeholderGeocoder",
  values?: { query: string },
) => string;

export function noResultsMessage(query: string, options: { geocoder: boolean; geocoderFailed: boolean }, t: SearchWords): string {
  const what = t("nothing", { query });
  if (options.geocoder && !options.geocoderFailed) return `${what} ${t("tryAgain")}`;
  return `${what} ${t(options.geocoder ? "geocoderDown" : "onlyTowns")}`;
}

/** The search box's hint: what can be typed. */
export function searchPlaceholder(geocoder: boolean, t: SearchWords): string {
  return t(geocoder ? "placeholderGeocoder" : "placeholder");
}
