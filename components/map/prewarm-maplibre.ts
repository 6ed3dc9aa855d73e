"use client";
// Starts MapLibre before the page that shows a map has hydrated: the library's chunk is asked for
// and its worker is created (prewarm) while React is still hydrating the page, instead of after.
// The worker then fetches and compiles its 0.5 MB script on its own thread in the meantime,
// ready when the map asks it to load the basemap. Called at module scope by a page whose first
// view is a map (the mission page), so it runs when the page's script runs.
import { maplibreWorkerUrl } from "./maplibre-worker";

let started: Promise<void> | null = null;

export function prewarmMaplibre(): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  started ??= import("maplibre-gl").then((maplibre) => {
    maplibre.setWorkerUrl(maplibreWorkerUrl());
    maplibre.prewarm();
  });
  return started;
}
