// The service app's router. Hono's default (SmartRouter) picks one router for every method: the
// order interface's POST /orders/quote beside POST /orders/:id/confirm (a fixed segment and a
// parameter in one place) cannot be compiled into a RegExpRouter, so every request, the hot GETs
// included, went through the slower TrieRouter (its search was ~4 % of a GET's time, issue 27).
// This router makes that choice per method: each method's routes (with the ALL ones, in the order
// they were added) in a RegExpRouter, or a TrieRouter for a method whose routes it cannot compile.
import { METHOD_NAME_ALL, UnsupportedPathError, type Result, type Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";

export class PerMethodRouter<T> implements Router<T> {
  readonly name = "PerMethodRouter";
  private readonly routes: [method: string, path: string, handler: T][] = [];
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

  /** Which router serves a method, once it has been matched ("RegExpRouter" or "TrieRouter"). */
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
    try {
      const router = new RegExpRouter<T>();
      for (const [m, path, handler] of routes) router.add(m, path, handler);
      router.match(method, "/"); // compiles it: an unsupported pattern throws here or in add()
      return router;
    } catch (error) {
      if (!(error instanceof UnsupportedPathError)) throw error;
    }
    const router = new TrieRouter<T>();
    for (const [m, path, handler] of routes) router.add(m, path, handler);
    return router;
  }
}
