// next-auth's endpoints (/api/auth/*): sign-in, callbacks, session, CSRF, sign-out. Its own pages
// (the sign-out confirmation, verify-request) carry the same security headers as every page.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";
import { withPageSecurityHeaders } from "@/lib/http/page-security-headers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  const response = (await NextAuth(authOptions())(request, context)) as Response;
  return withPageSecurityHeaders(response, request.headers);
}

export { handler as GET, handler as POST };
