import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { users } from "@/lib/db/schema";
import type { DashboardUser } from "@/lib/schemas/dashboard";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError } from "@/lib/service/errors";
import { getDashboardUser } from "./get-dashboard-user";

/** Failed sign-ins allowed per email address in a fixed 15-minute window. */
export const SIGN_IN_FAILURES = { seconds: 900, limit: 10 };

export interface SignInWithPasswordOptions {
  ctx: Pick<ServiceContext, "db" | "limiter">;
  email: string;
  password: string;
}

// Checked when the email is unknown or has no password (OIDC-only), so that such an answer takes
// as long as a wrong password and response times do not reveal which addresses have accounts.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(32).toString("base64url")));

const invalidCredentials = () => new ApiError(401, "invalid_credentials", "The email address or the password is wrong.");

function tooManyFailures(retryAfterSeconds: number) {
  return new ApiError(429, "rate_limited", `Too many failed sign-ins for this email address; retry after ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/**
 * Checks a dashboard user's email and password. Every wrong answer is the same 401, whatever was
 * wrong; failures are counted per lower-cased address, and past the limit even the right password
 * is refused (429) until the window ends, so guessing cannot go on behind the 429s.
 */
export async function signInWithPassword({ ctx, email, password }: SignInWithPasswordOptions): Promise<DashboardUser> {
  const key = `sign-in:${email.trim().toLowerCase()}`;
  const windows = [SIGN_IN_FAILURES];
  const exhausted = (await ctx.limiter.peek(key, windows)).filter((w) => w.remaining === 0);
  if (exhausted.length > 0) {
    const reset = Math.max(...exhausted.map((w) => w.reset));
    throw tooManyFailures(Math.max(1, reset - Math.floor(Date.now() / 1000)));
  }

  const [user] = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email.trim()})`)
    .limit(1);
  const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  const profile = user?.passwordHash && matches ? await getDashboardUser({ db: ctx.db, userId: user.id }) : null;
  if (!profile) {
    const usage = await ctx.limiter.consume(key, windows);
    if (!usage.allowed) throw tooManyFailures(usage.retryAfterSeconds);
    throw invalidCredentials();
  }
  return profile;
}
