// GET /field/serwist/:path – the field page's service worker (app/field/sw.ts), bundled by
// @serwist/turbopack at build time with the list of build assets to precache. Only what the field
// page needs offline is listed: scripts, styles and fonts of the build (not the basemap archives
// or vendor files under public/, which the field page does not load).
import { createSerwistRoute } from "@serwist/turbopack";

export const { dynamic, dynamicParams, revalidate, generateStaticParams, GET } = createSerwistRoute({
  swSrc: "app/field/sw.ts",
  // esbuild (native) is installed; esbuild-wasm is not.
  useNativeEsbuild: true,
  globPatterns: [".next/static/**/*.{js,css,woff2}"],
  // The map's largest chunks stay below this; anything bigger is fetched when needed.
  maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
});
