import "server-only";
// The one shape of every dashboard server action: session → role check → zod parse → handler →
// a typed result value. Errors are values at this boundary; the API's field errors come back
// keyed by their JSON pointer so forms can show them next to the field (or vertex) concerned.
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { roleAtLeast, type Role } from "@/lib/auth/roles";
import { getDashboardAccess, type DashboardAccess } from "./access";

export type ActionFailure = { ok: false; code: string; error: string; fieldErrors?: Record<string, string[]> };

export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

/**
 * Wraps a handler as a server action. A handler may answer outcomes of its own besides success and
 * a plain failure (e.g. `{ ok: false, code: "order_not_paid", orderId }`): the action's type keeps
 * them, so the page reads them as typed values.
 */
export function dashboardAction<S extends z.ZodType, R extends { ok: boolean }>(options: {
  least: Role;
  schema: S;
  handler: (input: z.output<S>, access: DashboardAccess) => Promise<R>;
}): (input: z.input<S>) => Promise<R | ActionFailure> {
  return async (input) => {
    const [access, t] = await Promise.all([getDashboardAccess(), getTranslations("dashboard")]);
    // In the reader's language: a page shows `error` as it is.
    if (!access) return { ok: false, code: "unauthenticated", error: t("actions.unauthenticated") };
    if (!roleAtLeast(access.role, options.least)) {
      return { ok: false, code: "forbidden", error: t("actions.forbidden", { role: t(`shell.roles.${options.least}`), org: access.org.name }) };
    }
    const parsed = options.schema.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const key = `/${issue.path.join("/")}`;
        (fieldErrors[key] ??= []).push(issue.message);
      }
      return { ok: false, code: "validation_failed", error: t("actions.validation"), fieldErrors };
    }
    return options.handler(parsed.data, access);
  };
}

const ProblemSchema = z.object({
  code: z.string().optional(),
  title: z.string().optional(),
  detail: z.string().optional(),
  errors: z.array(z.object({ pointer: z.string().optional(), message: z.string() })).optional(),
});

/** Turns an API problem+json body into a failed ActionResult. */
export function problemResult(status: number, body: unknown): ActionFailure {
  const problem = ProblemSchema.safeParse(body).data ?? {};
  const fieldErrors: Record<string, string[]> = {};
  for (const e of problem.errors ?? []) (fieldErrors[e.pointer ?? "/"] ??= []).push(e.message);
  return {
    ok: false,
    code: problem.code ?? `http_${status}`,
    error: problem.detail ?? problem.title ?? `The service answered ${status}.`,
    ...(Object.keys(fieldErrors).length > 0 ? { fieldErrors } : {}),
  };
}
