// Locations from a file or a paste: CSV with a name,lat,lng header (columns in any order, extra
// columns ignored, quoted fields allowed) or GeoJSON (Point features, a FeatureCollection or one
// Feature, the name from properties.name). Every row is judged on its own: good rows come back as
// locations, bad ones as codes with their parameters (row 4: latitude "abc" is not a number), which
// the import box words in the reader's language (wizard.json "locations.importProblem").

export interface ImportedLocation {
  name: string;
  lat: number;
  lng: number;
}

export type Axis = "lat" | "lng";

/** Why a row, or the whole text, was not imported. */
export type ImportProblem =
  | { code: "nameEmpty" | "noHeader" | "noRows" | "notCollection" | "noFeatures" | "invalidJson" }
  | { code: "nameTooLong"; max: number }
  | { code: "coordinateMissing"; axis: Axis }
  | { code: "notANumber"; axis: Axis; raw: string }
  | { code: "outOfRange"; axis: Axis; value: number; min: number; max: number }
  | { code: "notAPoint"; feature: number; geometry: string | null };

export interface ImportRowError {
  /** 1-based line of the CSV (the header is line 1) or 1-based feature number of the GeoJSON. */
  row: number;
  problems: ImportProblem[];
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

const MAX_NAME = 200;

function coordinate(raw: string | undefined, min: number, max: number, axis: Axis): number | ImportProblem {
  if (raw === undefined || raw.trim() === "") return { code: "coordinateMissing", axis };
  const value = Number(raw.replace(/\s/g, ""));
  if (!Number.isFinite(value)) return { code: "notANumber", axis, raw };
  if (value < min || value > max) return { code: "outOfRange", axis, value, min, max };
  return Math.round(value * 1e6) / 1e6;
}

/** Checks one row's three values; a location, or the reasons it is not one. */
function judge(name: string | undefined, lat: string | number | undefined, lng: string | number | undefined): ImportedLocation | ImportProblem[] {
  const problems: ImportProblem[] = [];
  const trimmed = (name ?? "").trim();
  if (!trimmed) problems.push({ code: "nameEmpty" });
  else if (trimmed.length > MAX_NAME) problems.push({ code: "nameTooLong", max: MAX_NAME });
  const la = coordinate(lat === undefined ? undefined : String(lat), -90, 90, "lat");
  const ln = coordinate(lng === undefined ? undefined : String(lng), -180, 180, "lng");
  if (typeof la !== "number") problems.push(la);
  if (typeof ln !== "number") problems.push(ln);
  if (problems.length > 0 || typeof la !== "number" || typeof ln !== "number") return problems;
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
    return { format: "csv", locations: [], errors: [{ row: 1, problems: [{ code: "noHeader" }] }] };
  }
  const locations: ImportedLocation[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === "") return;
    const fields = splitCsvLine(line, separator);
    const result = judge(fields[columns.name], fields[columns.lat], fields[columns.lng]);
    if (Array.isArray(result)) errors.push({ row: i + 2, problems: result });
    else locations.push(result);
  });
  if (locations.length === 0 && errors.length === 0) errors.push({ row: 2, problems: [{ code: "noRows" }] });
  return { format: "csv", locations, errors };
}

function parseGeoJson(value: unknown): Omit<ImportResult, "overLimit"> {
  const errors: ImportRowError[] = [];
  const locations: ImportedLocation[] = [];
  const root = value as { type?: unknown; features?: unknown };
  const features = root?.type === "FeatureCollection" && Array.isArray(root.features) ? root.features : root?.type === "Feature" ? [root] : null;
  if (!features) return { format: "geojson", locations, errors: [{ row: 1, problems: [{ code: "notCollection" }] }] };
  features.forEach((f, i) => {
    const feature = f as { geometry?: { type?: unknown; coordinates?: unknown }; properties?: Record<string, unknown> | null };
    const geometry = feature?.geometry;
    if (geometry?.type !== "Point" || !Array.isArray(geometry.coordinates)) {
      errors.push({ row: i + 1, problems: [{ code: "notAPoint", feature: i + 1, geometry: typeof geometry?.type === "string" ? geometry.type : null }] });
      return;
    }
    const [lng, lat] = geometry.coordinates as unknown[];
    const props = feature.properties ?? {};
    const name = [props.name, props.title, props.Name].find((v) => typeof v === "string") as string | undefined;
    const result = judge(name, typeof lat === "number" ? lat : undefined, typeof lng === "number" ? lng : undefined);
    if (Array.isArray(result)) errors.push({ row: i + 1, problems: result });
    else locations.push(result);
  });
  if (features.length === 0) errors.push({ row: 1, problems: [{ code: "noFeatures" }] });
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
      return { format: "geojson", locations: [], errors: [{ row: 1, problems: [{ code: "invalidJson" }] }], overLimit: 0 };
    }
    parsed = parseGeoJson(json);
  } else parsed = parseCsv(trimmed);
  const kept = parsed.locations.slice(0, Math.max(0, room));
  return { ...parsed, locations: kept, overLimit: parsed.locations.length - kept.length };
}
