// Low-detail country layers for the offline basemap, from world-atlas (Natural Earth 1:110m):
// country polygons (the land fill), internal boundary lines, and one label point per country.
import { createRequire } from "node:module";
import { area, booleanPointInPolygon, centerOfMass, pointOnFeature, polygon as turfPolygon } from "@turf/turf";
import { feature, mesh } from "topojson-client";

const require = createRequire(import.meta.url);

/** Rounds every number in a GeoJSON value to `digits` decimals (0.001° ≈ 110 m; the source is coarser). */
function quantise(value, digits) {
  const factor = 10 ** digits;
  return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === "number" ? Math.round(v * factor) / factor : v)));
}

/** Polygons of a Polygon or MultiPolygon geometry, as coordinate arrays. */
function partsOf(geometry) {
  if (geometry.type === "Polygon") return [geometry.coordinates];
  if (geometry.type === "MultiPolygon") return geometry.coordinates;
  return [];
}

/**
 * A point for the country's name: the centre of mass of its largest part when that lies inside
 * it (most countries), else a point guaranteed on the surface (crescent-shaped ones).
 */
function labelPoint(geometry) {
  const parts = partsOf(geometry).map((coordinates) => turfPolygon(coordinates));
  const largest = parts.reduce((best, part) => (area(part) > area(best) ? part : best));
  const centre = centerOfMass(largest);
  return booleanPointInPolygon(centre, largest) ? centre.geometry : pointOnFeature(largest).geometry;
}

export function buildCountryLayers({ resolution = "110m", digits = 3 } = {}) {
  const topology = require(`world-atlas/countries-${resolution}.json`);
  const countries = feature(topology, topology.objects.countries);
  const named = countries.features.filter((f) => f.geometry && partsOf(f.geometry).length > 0);

  const countryPolygons = {
    type: "FeatureCollection",
    features: named.map((f) => ({ type: "Feature", properties: { name: f.properties.name }, geometry: f.geometry })),
  };
  // a !== b keeps arcs shared by two countries: land borders, not coastlines.
  const borders = {
    type: "FeatureCollection",
    features: [{ type: "Feature", properties: {}, geometry: mesh(topology, topology.objects.countries, (a, b) => a !== b) }],
  };
  const labels = {
    type: "FeatureCollection",
    features: named
      .map((f) => ({
        type: "Feature",
        // area_km2 lets the style show big countries first and size their names.
        properties: { name: f.properties.name, area_km2: Math.round(area(f) / 1e6) },
        geometry: labelPoint(f.geometry),
      }))
      .sort((a, b) => b.properties.area_km2 - a.properties.area_km2),
  };
  return {
    countries: quantise(countryPolygons, digits),
    borders: quantise(borders, digits),
    labels: quantise(labels, digits),
  };
}
