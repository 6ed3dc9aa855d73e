import { describe, expect, it } from "vitest";
import { cameraFeatures, destination, distanceBetweenM } from "./camera-geometry";

const target = { lat: 43.7731, lng: 11.256 };
const south30 = { lat: target.lat - 30 / 111_195, lng: target.lng };

describe("camera geometry", () => {
  it("walks a distance along a bearing", () => {
    const north = destination(south30, 0, 30);
    expect(distanceBetweenM(north, target)).toBeLessThan(0.5);
    const east = destination(target, 90, 100);
    expect(east.lat).toBeCloseTo(target.lat, 4);
    expect(distanceBetweenM(target, east)).toBeCloseTo(100, 0);
  });

  it("draws the direction line from the camera: facing north, 30 m south of the target, it ends at the target", () => {
    const { features } = cameraFeatures({ target, camera: south30, directionDeg: 0 });
    expect(features.map((f) => f.properties.role)).toEqual(["target", "offset", "direction", "camera"]);
    const direction = features[2]?.geometry.coordinates as [number, number][];
    const end = direction[1] ?? [0, 0];
    expect(distanceBetweenM({ lng: end[0], lat: end[1] }, target)).toBeLessThan(0.5);
  });

  it("shows only the target without a camera position, and no direction line without a direction", () => {
    expect(cameraFeatures({ target, camera: null, directionDeg: 0 }).features).toHaveLength(1);
    expect(cameraFeatures({ target, camera: south30, directionDeg: null }).features.map((f) => f.properties.role)).toEqual(["target", "offset", "camera"]);
  });
});
