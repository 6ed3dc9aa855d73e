"use client";

import { useMemo } from "react";
import { Layer, Source } from "react-map-gl/maplibre";

import { cameraFeatures, type CameraView } from "./camera-geometry";
import {
  CAMERA_SOURCE_ID,
  cameraDirectionLayer,
  cameraOffsetLayer,
  cameraPointLayer,
  cameraTargetLayer,
  deviceOffsetLayer,
  devicePointLayer,
} from "./order-layer-styles";

/**
 * A delivered photo's camera against its target: the target ringed, the camera's GPS position, a
 * dashed line between them and a solid line from the camera along its compass direction — a
 * camera that faced the target points at the ring; and, when the phone sent its own position, that
 * position with a dotted line to the camera's. Nothing but the target without a GPS fix.
 */
export function CameraPositionLayer({ view }: { view: CameraView | null }) {
  const data = useMemo(() => (view ? cameraFeatures(view) : { type: "FeatureCollection" as const, features: [] }), [view]);
  return (
    <Source id={CAMERA_SOURCE_ID} type="geojson" data={data}>
      <Layer {...cameraOffsetLayer} />
      <Layer {...cameraDirectionLayer} />
      <Layer {...deviceOffsetLayer} />
      <Layer {...cameraTargetLayer} />
      <Layer {...cameraPointLayer} />
      <Layer {...devicePointLayer} />
    </Source>
  );
}
