// Locations from a file or a paste: CSV with a name,lat,lng header (columns in any order, extra
// columns ignored, quoted fields allowed) or GeoJSON (Point features, a FeatureCollection or one
// Feature, the name from properties.name). Every row is judged on its own: good rows come back as
// locations, bad ones as "row 4: latitude is not a number" for the list beside the import box.

export interface ImportedLocation {
  name: string;
  lat: number;
  lng: number;
}

export interface ImportRowError {
  /** 1-based line of the CSV (the header is line 1) or 1-based feature number of the GeoJSON. */
  row: number;
  message: string;
}

export interface ImportResult {
  format: "csv" | "geojson";
  locations: ImportedLocation[];
  errors: ImportRowError[];
  /** Rows left out because the order would pass its location limit. */
  overLimit: number;
}

/** Splits one CSV line (RFC 4180 quoting, "," or ";" as the separator). */
export function splitCsvLine(line: string, separator = ","): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (c === separator) {
      fields.push(field.trim());
      field = "";
    } else field += c;
  }
  fields.push(field.trim());
  return fields;
}

function coordinate(raw: string | undefined, min: number, max: number, word: string): number | string {
  if (raw === undefined || raw.trim() === "") return `${word} is missing`;
  const value = Number(raw.replace(/\s/g, ""));
  if (!Number.isFinite(value)) return `${word} "${raw}" is not a number`;
  if (value < min || value > max) return `${word} ${value} is outside ${min} to ${max}`;
  return Math.round(value * 1e6) / 1e6;
}

/** Checks one row's three values; a location, or the reasons it is not one. */
function judge(name: string | undefined, lat: string | number | undefined, lng: string | number | undefined): ImportedLocation | string {
  const problems: string[] = [];
  const trimmed = (name ?? "").trim();
  if (!trimmed) problems.push("the name is empty");
  else if (trimmed.length > 200) problems.push("the name is longer than 200 characters");
  const la = coordinate(lat === undefined ? undefined : String(lat), -90, 90, "latitude");
  const ln = coordinate(lng === undefined ? undefined : String(lng), -180, 180, "longitude");
  if (typeof la === "string") problems.push(la);
  if (typeof ln === "string") problems.push(ln);
  if (problems.length > 0 || typeof la !== "number" || typeof ln !== "number") return problems.join("; ");
  return { name: trimmed, lat: la, lng: ln };
}

function parseCsv(text: string): Omit<ImportResult, "overLimit"> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const headerLine = lines[0] ?? "";
  const separator = headerLine.includes(";") && !headerLine.includes(",") ? ";" : ",";
  const header = splitCsvLine(headerLine, separator).map((h) => h.toLowerCase());
  const at = (names: string[]) => header.findIndex((h) => names.includes(h));
  const columns = { name: at(["name", "title", "place"]), lat: at(["lat", "latitude"]), lng: at(["lng", "lon", "long", "longitude"]) };
  const errors: ImportRowError[] = [];
  if (columns.name < 0 || columns.lat < 0 || columns.lng < 0) {
    return { format: "csv", locations: [], errors: [{ row: 1, message: 'The first line must name the columns: name,lat,lng.' }] };
  }
  const locations: ImportedLocation[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === "") return;
    const fields = splitCsvLine(line, separator);
    const result = judge(fields[columns.name], fields[columns.lat], fields[columns.lng]);
    if (typeof result === "string") errors.push({ row: i + 2, message: result });
    else locations.push(result);
  });
  if (locations.length === 0 && errors.length === 0) errors.push({ row: 2, message: "There are no rows under the header." });
  return { format: "csv", locations, errors };
}

function parseGeoJson(value: unknown): Omit<ImportResult, "overLimit"> {
  const errors: ImportRowError[] = [];
  const locations: ImportedLocation[] = [];
  const root = value as { type?: unknown; features?: unknown };
  const features = root?.type === "FeatureCollection" && Array.isArray(root.features) ? root.features : root?.type === "Feature" ? [root] : null;
  if (!features) return { format: "geojson", locations, errors: [{ row: 1, message: "Expected a GeoJSON FeatureCollection or Feature of points." }] };
  features.forEach((f, i) => {
    const feature = f as { geometry?: { type?: unknown; coordinates?: unknown }; properties?: Record<string, unknown> | null };
    const geometry = feature?.geometry;
    if (geometry?.type !== "Point" || !Array.isArray(geometry.coordinates)) {
      errors.push({ row: i + 1, message: `feature ${i + 1} is ${typeof geometry?.type === "string" ? `a ${geometry.type}` : "not a geometry"}, not a Point` });
      return;
    }
    const [lng, lat] = geometry.coordinates as unknown[];
    const props = feature.properties ?? {};
    const name = [props.name, props.title, props.Name].find((v) => typeof v === "string") as string | undefined;
    const result = judge(name, typeof lat === "number" ? lat : undefined, typeof lng === "number" ? lng : undefined);
    if (typeof result === "string") errors.push({ row: i + 1, message: result });
    else locations.push(result);
  });
  if (features.length === 0) errors.push({ row: 1, message: "The collection has no features." });
  return { format: "geojson", locations, errors };
}

/** Reads a CSV or GeoJSON text; `room` is how many more locations the order can take. */
export function importLocations(text: string, room: number): ImportResult {
  const trimmed = text.trim();
  let parsed: Omit<ImportResult, "overLimit">;
  if (trimmed.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      return { format: "geojson", locations: [], errors: [{ row: 1, message: "This looks like JSON but is not valid JSON." }], overLimit: 0 };
    }
    parsed = parseGeoJson(json);
  } else parsed = parseCsv(trimmed);
  const kept = parsed.locations.slice(0, Math.max(0, room));
  return { ...parsed, locations: kept, overLimit: parsed.locations.length - kept.length };
}
