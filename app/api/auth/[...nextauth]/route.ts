// next-auth's endpoints (/api/auth/*): sign-in, callbacks, session, CSRF, sign-out.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(authOptions())(request, context) as Promise<Response>;
}

export { handler as GET, handler as POST };
