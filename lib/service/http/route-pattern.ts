// A Hono route path ("/api/v1/missions/:id", "/api/v1/*") as a regular expression over concrete
// paths, for the questions asked of the app's route list: which methods a path allows (app.ts's
// 405) and whether a route also answers a direct read's paths (direct-reads.ts).
export function routePathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+").replace(/\*/g, ".*")}/?$`);
}
