/**
 * Label fading off: MapLibre fades symbols in and out over 300 ms by default, which keeps it
 * drawing frame after frame while a map loads and whenever labels collide anew. Where WebGL is
 * slow (software rendering, weak GPUs) each of those frames is a long task on the main thread:
 * on the mission page they were most of Lighthouse's blocking time. Labels now appear at once.
 * The benchmarks' bare MapLibre page uses the same value.
 */
export const MAP_FADE_DURATION_MS = 0;
