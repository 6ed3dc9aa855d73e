// The house's floors: which folder may import which, read from the files themselves with the
// TypeScript compiler (type-only and dynamic imports included), so an import that points up a
// floor, or closes a circle, fails here with its path. A file imports its own folder, the folders
// of its floor that do not import it back, and every floor below; never a floor above.
//
// Every source file must sit in a folder of the table: a new folder is placed on a floor on purpose.
// Tests (*.test.ts) are not read: they sit beside the code they test and may compose anything.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** Bottom first. A folder's subfolders are on its floor unless they are named themselves. */
const FLOORS: { floor: string; folders: string[] }[] = [
  {
    floor: "vocabulary and pure helpers",
    folders: ["lib/orders", "lib/ids", "lib/text", "lib/geo", "lib/i18n", "lib/auth", "lib/log.ts", "lib/fs", "clients/readme-code.ts"],
  },
  { floor: "the validated environment", folders: ["lib/env.ts"] },
  {
    floor: "shared schemas, pixels, checks and the phone's code",
    folders: ["lib/schemas", "lib/http", "lib/map", "lib/geocode", "lib/photos", "lib/verification", "lib/field"],
  },
  { floor: "the database", folders: ["lib/db"] },
  { floor: "the service's job queue", folders: ["lib/service/queue"] },
  // The service's kernel (context, errors) and its domain modules, one folder per concept: they
  // import each other freely (the file-circle test still holds them), never a door above.
  { floor: "the service's domain", folders: ["lib/service"] },
  { floor: "the service's doors: HTTP and the job worker", folders: ["lib/service/http", "lib/service/worker"] },
  { floor: "the demo (seeds and drives the service)", folders: ["lib/demo"] },
  { floor: "the composition root", folders: ["lib/runtime"] },
  {
    floor: "the pages' server side",
    folders: ["lib/api-client", "lib/session", "lib/pages", "lib/dashboard", "lib/field-server", "lib/docs"],
  },
  {
    floor: "components",
    folders: [
      "components/ui",
      "components/providers",
      "components/dashboard",
      "components/settings",
      "components/map",
      "components/credentials",
      "components/docs",
      "components/field",
      "components/missions",
      "components/orders",
      "components/submissions",
      "components/webhooks",
    ],
  },
  {
    floor: "pages, entry points, scripts and test harnesses",
    folders: ["app", "proxy.ts", "instrumentation.ts", "next.config.ts", "scripts", "lib/testing", "lib/map/testing", "lib/service/http/tests"],
  },
];

const ENTRY_POINTS = ["proxy.ts", "instrumentation.ts", "next.config.ts"];
const SOURCE_DIRS = ["lib", "components", "app", "scripts"];

function sourceFiles(): string[] {
  const files = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      .map((e) => relative(root, join(e.parentPath, e.name)))
      .filter((file) => !file.includes("node_modules")),
  );
  return [...files, ...ENTRY_POINTS.filter((file) => existsSync(join(root, file)))].sort();
}

/** Module specifiers of a file: imports and exports (type-only too), import(), import types. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const compilerOptions: ts.CompilerOptions = {
  baseUrl: root,
  paths: { "@/*": ["./*"] },
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
  jsx: ts.JsxEmit.ReactJSX,
};

/** The house's file a specifier names, or null for a package (or a file outside the house, e.g. messages JSON). */
function resolveImport(file: string, specifier: string): string | null {
  const { resolvedModule } = ts.resolveModuleName(specifier, join(root, file), compilerOptions, ts.sys);
  if (!resolvedModule || resolvedModule.isExternalLibraryImport) {
    const local = specifier.startsWith("@/") || specifier.startsWith(".");
    if (local && !/\.(css|json|mjs|svg|png)$/.test(specifier)) throw new Error(`${file}: cannot resolve ${specifier}`);
    return null;
  }
  const target = relative(root, resolvedModule.resolvedFileName);
  return /\.tsx?$/.test(target) && !target.endsWith(".d.ts") ? target : null;
}

const folderOrder = FLOORS.flatMap(({ folders }, floor) => folders.map((folder) => ({ folder, floor })));

/** The table's folder a file is in: the longest folder that contains it. */
function folderOf(file: string): { folder: string; floor: number } | undefined {
  return folderOrder.filter(({ folder }) => file === folder || file.startsWith(`${folder}/`)).sort((a, b) => b.folder.length - a.folder.length)[0];
}

interface Edge {
  from: string;
  to: string;
}

function readHouse(): { files: string[]; edges: Edge[] } {
  const files = sourceFiles();
  const edges = files.flatMap((from) =>
    specifiersOf(from).flatMap((specifier) => {
      const to = resolveImport(from, specifier);
      return to ? [{ from, to }] : [];
    }),
  );
  return { files, edges };
}

/** One circle per strongly connected group of files (Tarjan), as a path that returns to its start. */
function importCircles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const { from, to } of edges) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      const selfLoop = (next.get(v) ?? []).includes(v);
      if (group.length > 1 || selfLoop) groups.push(group);
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  // A shortest way round each group, from its first file back to it.
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0] ?? "";
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift() ?? "";
      for (const w of next.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let at: string | undefined = v; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
          return [...path, start];
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...group, group[0] ?? ""];
  });
}

function upwardImports(edges: Edge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const a = folderOf(from);
    const b = folderOf(to);
    if (!a || !b || b.floor <= a.floor) return [];
    return [`${from} (${FLOORS[a.floor]?.floor}) → ${to} (${FLOORS[b.floor]?.floor})`];
  });
}

const house = readHouse();

describe("the house's floors", () => {
  it("reads a real import graph (type-only and dynamic imports too)", () => {
    expect(house.files.length).toBeGreaterThan(500);
    const typeOnly = house.edges.find((e) => e.from === "lib/service/context.ts" && e.to === "lib/db/client.ts");
    expect(typeOnly, "lib/service/context.ts imports the type Db from lib/db/client.ts").toBeDefined();
  });

  it("every source file sits in a folder of the table", () => {
    expect(house.files.filter((file) => !folderOf(file))).toEqual([]);
  });

  it("finds an upward import and a circle when there is one (the checks below can fail)", () => {
    const made = [
      { from: "lib/schemas/order.ts", to: "lib/service/context.ts" },
      { from: "lib/geo/a.ts", to: "lib/geo/b.ts" },
      { from: "lib/geo/b.ts", to: "lib/geo/c.ts" },
      { from: "lib/geo/c.ts", to: "lib/geo/a.ts" },
    ];
    expect(upwardImports(made)).toEqual([
      "lib/schemas/order.ts (shared schemas, pixels, checks and the phone's code) → lib/service/context.ts (the service's domain)",
    ]);
    expect(importCircles(["lib/geo/a.ts", "lib/geo/b.ts", "lib/geo/c.ts"], made).map((c) => c.join(" → "))).toEqual([
      "lib/geo/a.ts → lib/geo/b.ts → lib/geo/c.ts → lib/geo/a.ts",
    ]);
  });

  it("no import points up a floor", () => {
    expect(upwardImports(house.edges)).toEqual([]);
  });

  it("folders on one floor do not import each other both ways", () => {
    const folderEdges = new Set<string>();
    for (const { from, to } of house.edges) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a && b && a.folder !== b.folder && a.floor === b.floor) folderEdges.add(`${a.folder} → ${b.folder}`);
    }
    const folders = folderOrder.map(({ folder }) => folder);
    const circles = importCircles(
      folders,
      [...folderEdges].map((e) => {
        const [from = "", to = ""] = e.split(" → ");
        return { from, to };
      }),
    );
    expect(circles.map((c) => c.join(" → "))).toEqual([]);
  });

  it("no import circles between files", () => {
    expect(importCircles(house.files, house.edges).map((c) => c.join(" → "))).toEqual([]);
  });

  it("the dashboard's pages and the components reach the service only through the API client", () => {
    const page = (file: string) => file.startsWith("app/(dashboard)/") || file.startsWith("app/(auth)/") || file.startsWith("components/");
    const bad = house.edges.filter(({ from, to }) => page(from) && /^lib\/(service|db|runtime)\//.test(to)).map(({ from, to }) => `${from} → ${to}`);
    // Not yet: the submission panel words QA's reasons with the service's pure QA code; it goes once
    // the pure checks of lib/service/qa/checks.ts live with lib/verification.
    const notYet = ["components/submissions/submission-panel.tsx → lib/service/qa/reason-codes.ts"];
    expect(bad.filter((e) => !notYet.includes(e))).toEqual([]);
  });

  it("the service's two doors do not import each other: what both need lives in the domain below", () => {
    const door = (file: string) => (file.startsWith("lib/service/http/") ? "http" : file.startsWith("lib/service/worker/") ? "worker" : undefined);
    const crossing = house.edges.filter(({ from, to }) => door(from) && door(to) && door(from) !== door(to));
    expect(crossing.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it("the order vocabulary imports only the calendar and the id prefixes of the house", () => {
    const allowed = new Set(["lib/geo/calendar.ts", "lib/ids/prefixes.ts"]);
    const bad = house.edges.filter(({ from, to }) => from.startsWith("lib/orders/") && !to.startsWith("lib/orders/") && !allowed.has(to));
    expect(bad.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it("the service never imports Next or React; the order vocabulary only zod", () => {
    const packagesOf = (prefix: string) =>
      house.files
        .filter((f) => f.startsWith(prefix))
        .flatMap((file) =>
          specifiersOf(file)
            .filter((s) => !s.startsWith(".") && !s.startsWith("@/"))
            .map((s) => `${file} → ${s}`),
        );
    expect(packagesOf("lib/service/").filter((e) => / → (next|react|next-auth|next-intl)(\/|$)/.test(e))).toEqual([]);
    expect(packagesOf("lib/orders/").filter((e) => !/ → zod$/.test(e))).toEqual([]);
  });

  it("no route module or component is over 400 lines (issue 35: a file one can hold in one's head)", () => {
    const held = house.files.filter((file) => file.startsWith("lib/service/http/routes/") || file.startsWith("components/"));
    expect(held.length).toBeGreaterThan(50);
    const long = held
      .map((file) => ({ file, lines: readFileSync(join(root, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
