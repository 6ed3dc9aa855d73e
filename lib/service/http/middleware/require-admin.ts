import { createMiddleware } from "hono/factory";
import { constantTimeEqual } from "@/lib/auth/secrets";
import { ApiError } from "@/lib/service/errors";
import type { AppEnv } from "../types";

/** The operator interface: `Authorization: Bearer <ADMIN_TOKEN>`. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const token = /^Bearer (.+)$/i.exec(header)?.[1];
  if (!token || !constantTimeEqual(token, c.var.ctx.config.adminToken)) {
    throw new ApiError(401, "unauthorized", "The operator interface needs `Authorization: Bearer <ADMIN_TOKEN>`.", {
      headers: { "WWW-Authenticate": 'Bearer realm="photo-missions-admin"' },
    });
  }
  await next();
});
