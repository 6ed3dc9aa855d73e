// The service app's router. Hono's default (SmartRouter) picks one router for every method, and
// RegExpRouter cannot compile a fixed segment beside a parameter with deeper segments in the same
// place — the order interface's POST /orders/quote beside POST /orders/:id/confirm, GET
// /orders/reports/on-time beside GET /orders/:id/photos — so every request, the hot GETs included,
// went through the slower TrieRouter (its search and parameter objects were ~4–6 % of a GET's time,
// issues 27 and 36). This router makes the choice per method, once, on the first request of the
// method: its routes (with the ALL ones, in the order they were added)
// 1. in one RegExpRouter when it compiles them all;
// 2. else the routes with a parameter or wildcard in a RegExpRouter, and the fixed paths that broke
//    it answered from a TrieRouter of every route, each fixed path's answer kept (a fixed path has
//    no parameters, so its answer never changes; there are as many as routes were added): a request
//    whose path is not one of those fixed paths cannot match one of them, so the RegExpRouter's
//    answer is the whole answer;
// 3. else in a TrieRouter.
import { METHOD_NAME_ALL, UnsupportedPathError, type Result, type Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";

type Route<T> = [method: string, path: string, handler: T];

export class PerMethodRouter<T> implements Router<T> {
  readonly name = "PerMethodRouter";
  private readonly routes: Route<T>[] = [];
  /** Built on the first request of each method (node's parser admits only the known methods). */
  private readonly routers = new Map<string, Router<T>>();

  add(method: string, path: string, handler: T): void {
    if (this.routers.size > 0) throw new Error("PerMethodRouter: a route was added after the first request");
    this.routes.push([method, path, handler]);
  }

  match(method: string, path: string): Result<T> {
    let router = this.routers.get(method);
    if (!router) {
      // A method no route names (OPTIONS, say) shares the router of the ALL routes alone.
      router = this.routes.some(([m]) => m === method) ? this.build(method) : this.allOnly();
      this.routers.set(method, router);
    }
    return router.match(method, path);
  }

  /** Which router serves a method, once it has been matched ("RegExpRouter", "FixedPathsThenRegExpRouter" or "TrieRouter"). */
  routerOf(method: string): string | undefined {
    return this.routers.get(method)?.name;
  }

  private allOnly(): Router<T> {
    let router = this.routers.get(METHOD_NAME_ALL);
    if (!router) {
      router = this.build(METHOD_NAME_ALL);
      this.routers.set(METHOD_NAME_ALL, router);
    }
    return router;
  }

  private build(method: string): Router<T> {
    const routes = this.routes.filter(([m]) => m === method || m === METHOD_NAME_ALL);
    const all = compiled(method, routes);
    if (all) return all;
    const fixed = routes.filter(([m, path]) => m !== METHOD_NAME_ALL && isFixedPath(path));
    const rest = compiled(
      method,
      routes.filter((route) => !fixed.includes(route)),
    );
    const trie = trieOf(routes);
    return rest ? new FixedPathsThenRegExpRouter(new Set(fixed.map(([, path]) => path)), trie, rest) : trie;
  }
}

/** A path without parameters, wildcards or optional parts: it matches itself only. */
function isFixedPath(path: string): boolean {
  return !/[:*?{]/.test(path);
}

/** These routes in a RegExpRouter, or undefined when it cannot compile them. */
function compiled<T>(method: string, routes: Route<T>[]): Router<T> | undefined {
  try {
    const router = new RegExpRouter<T>();
    for (const [m, path, handler] of routes) router.add(m, path, handler);
    router.match(method, "/"); // compiles it: an unsupported pattern throws here or in add()
    return router;
  } catch (error) {
    if (!(error instanceof UnsupportedPathError)) throw error;
    return undefined;
  }
}

function trieOf<T>(routes: Route<T>[]): Router<T> {
  const router = new TrieRouter<T>();
  for (const [m, path, handler] of routes) router.add(m, path, handler);
  return router;
}

/** Step 2 above: the fixed paths RegExpRouter could not take, from the TrieRouter of every route (answers kept); the rest from the RegExpRouter. */
class FixedPathsThenRegExpRouter<T> implements Router<T> {
  readonly name = "FixedPathsThenRegExpRouter";
  private readonly answers = new Map<string, Result<T>>();

  constructor(
    private readonly fixedPaths: ReadonlySet<string>,
    private readonly everyRoute: Router<T>,
    private readonly withParameters: Router<T>,
  ) {}

  add(): void {
    throw new Error("FixedPathsThenRegExpRouter: routes are given when it is built");
  }

  match(method: string, path: string): Result<T> {
    if (!this.fixedPaths.has(path)) return this.withParameters.match(method, path);
    let answer = this.answers.get(path);
    if (!answer) {
      answer = this.everyRoute.match(method, path);
      this.answers.set(path, answer);
    }
    return answer;
  }
}
