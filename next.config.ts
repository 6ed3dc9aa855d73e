import type { NextConfig } from "next";
// Validates the environment at build and start: a bad environment fails here, not at 3 a.m.
import "./lib/env";

const nextConfig: NextConfig = {
  serverExternalPackages: ["@electric-sql/pglite", "pg", "exifr", "sharp", "busboy", "tesseract.js"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
