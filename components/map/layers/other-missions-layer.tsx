"use client";

import { useMemo } from "react";
import { Layer, Source } from "react-map-gl/maplibre";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { polygonVertices } from "../snap-to-vertices";
import { OTHER_MISSIONS_SOURCE_ID, otherMissionsOutlineLayer, otherMissionsVertexLayer } from "./layer-styles";

/** The organisation's other missions while drawing: dashed outlines and their vertices (snap targets). */
export function OtherMissionsLayer({ polygons }: { polygons: PolygonGeometry[] }) {
  const data = useMemo(
    () => ({
      type: "FeatureCollection" as const,
      features: [
        ...polygons.map((geometry) => ({ type: "Feature" as const, properties: {}, geometry })),
        ...polygonVertices(polygons).map((coordinates) => ({ type: "Feature" as const, properties: {}, geometry: { type: "Point" as const, coordinates } })),
      ],
    }),
    [polygons],
  );
  return (
    <Source id={OTHER_MISSIONS_SOURCE_ID} type="geojson" data={data}>
      <Layer {...otherMissionsOutlineLayer} />
      <Layer {...otherMissionsVertexLayer} />
    </Source>
  );
}
