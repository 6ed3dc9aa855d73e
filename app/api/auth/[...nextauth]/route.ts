// next-auth's endpoints (/api/auth/*): sign-in, callbacks, session, CSRF, sign-out. Its own pages
// (the sign-out confirmation, verify-request) carry the same security headers as every page; a
// callbackUrl that is not a path of this site is refused before next-auth reads it.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/session/next-auth-options";
import { refuseHostileCallbackUrl } from "@/lib/session/next-auth-request";
import { env } from "@/lib/env";
import { withPageSecurityHeaders } from "@/lib/pages/page-security-headers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  // A callbackUrl naming another site is a 400 here, not next-auth's 500 (lib/session/next-auth-request.ts).
  const refused = refuseHostileCallbackUrl(request, env.PUBLIC_ORIGIN);
  if (refused) return withPageSecurityHeaders(refused, request.headers);
  const response = (await NextAuth(authOptions())(request, context)) as Response;
  return withPageSecurityHeaders(response, request.headers);
}

export { handler as GET, handler as POST };
