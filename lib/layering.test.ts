// The order concept's layers import downwards only: the vocabulary (lib/orders) depends on nothing
// of the app; the API's schemas on the vocabulary, never on the service or the database; the
// service never on the dashboard; the dashboard's order components never on the service, the
// database or a page. Read from the files themselves, so a new upward import fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1] ?? "");
}

function offending(dirs: string[], allowed: (spec: string) => boolean): string[] {
  return dirs.flatMap((dir) => sources(dir).flatMap((file) => importsOf(file).filter((spec) => !allowed(spec)).map((spec) => `${file} → ${spec}`)));
}

describe("order layers", () => {
  it("lib/orders imports only zod, pure calendar and id helpers, and itself", () => {
    const ok = (s: string) => s === "zod" || s.startsWith("./") || s === "@/lib/geo/calendar" || s === "@/lib/ids/prefixes";
    expect(offending(["lib/orders"], ok)).toEqual([]);
  });

  it("the order schemas reach neither the service, the database nor the dashboard", () => {
    const bad = /^@\/(lib\/service|lib\/db|components|app)\//;
    expect(importsOf("lib/schemas/order.ts").filter((s) => bad.test(s))).toEqual([]);
  });

  it("the order service never imports the dashboard or Next", () => {
    const ok = (s: string) => !/^@\/(components|app)\//.test(s) && !/^next(\/|$)/.test(s);
    expect(offending(["lib/service/orders"], ok)).toEqual([]);
  });

  it("the dashboard's order components never import the service, the database or a page", () => {
    const ok = (s: string) => !/^@\/(lib\/service|lib\/db|app)\//.test(s);
    expect(offending(["components/orders"], ok)).toEqual([]);
  });

  it("the order pages reach the service only through the API client", () => {
    const ok = (s: string) => !/^@\/(lib\/service|lib\/db)\//.test(s);
    expect(offending(["app/(dashboard)/orders"], ok)).toEqual([]);
  });
});
