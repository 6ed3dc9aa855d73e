import "server-only";
// next-auth configuration: email + password checked by the service (scrypt hashes never leave
// it), an OIDC provider when OIDC_* is set (admitting only users the operator created), and a
// JWT session cookie that holds who the user is and the language they chose — never an API token.
// Roles are re-read from the service on each request (lib/dashboard/access.ts), so a changed role
// applies at once; the language rides in the cookie, so a page's locale costs no service call.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/env";
import { DEMO_USER } from "@/lib/demo/demo-user";
import { findUserByEmail, getUserAccess, OperatorCallError, signInWithPassword } from "@/lib/api-client/operator";
import { safeCallbackUrl } from "./callback-url";
import { sessionSecret } from "./session-secret";

const CredentialsSchema = z.union([z.object({ demo: z.literal("true") }), z.object({ email: z.email().max(320), password: z.string().min(1).max(1024) })]);

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

export function authOptions(): NextAuthOptions {
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        demo: { label: "Demo account", type: "hidden" },
      },
      async authorize(raw) {
        const parsed = CredentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        // The demo account signs in server-side, so its password never reaches the browser.
        const credentials = "demo" in parsed.data ? (env.DEMO_ENABLED ? DEMO_USER : null) : parsed.data;
        if (!credentials) return null;
        try {
          const access = await signInWithPassword(credentials.email, credentials.password);
          if (!access) return null;
          return { id: access.user.id, email: access.user.email, name: access.user.name, locale: access.user.locale };
        } catch (error) {
          // next-auth passes an Error's message to the sign-in page as ?error=…
          if (error instanceof OperatorCallError && error.status === 429) {
            throw new Error(`rate_limited:${error.retryAfterSeconds ?? 60}`);
          }
          throw error;
        }
      },
    }),
  ];
  if (env.OIDC) {
    providers.push({
      id: "oidc",
      name: env.OIDC.name,
      type: "oauth",
      wellKnown: `${env.OIDC.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      clientId: env.OIDC.clientId,
      clientSecret: env.OIDC.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile(profile: { sub: string; email?: string; name?: string }) {
        return { id: profile.sub, email: profile.email ?? null, name: profile.name ?? null };
      },
    });
  }

  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers,
    callbacks: {
      // Every callbackUrl next-auth follows (the sign-in and sign-out forms' field, its cookie):
      // a path of this site or the dashboard. Never throws, so a hostile value is not a 500 (the
      // default callback's `new URL` throws on `http://localhost:3000.evil.example/`).
      redirect({ url }) {
        return safeCallbackUrl(url, env.PUBLIC_ORIGIN);
      },
      async signIn({ user, account, profile }) {
        if (account?.provider !== "oidc") return true;
        // OIDC admits existing users only, by a verified email.
        const verified = (profile as { email_verified?: boolean } | undefined)?.email_verified !== false;
        if (!user.email || !verified) return "/sign-in?error=oidc_unverified";
        const access = await findUserByEmail(user.email);
        if (!access) return "/sign-in?error=oidc_unknown";
        user.id = access.user.id;
        user.name = access.user.name;
        user.locale = access.user.locale;
        return true;
      },
      async jwt({ token, user, trigger }) {
        // On sign-in, `user` is what authorize/signIn produced: our user id becomes the subject.
        if (user) {
          token.sub = user.id;
          token.locale = user.locale ?? null;
        }
        // After the user changes their language (lib/session/refresh-session.ts), the cookie takes it
        // from the service: the browser only asks for the refresh, it never says what the value is.
        if (trigger === "update" && token.sub) token.locale = (await getUserAccess(token.sub))?.user.locale ?? null;
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub ?? "", locale: token.locale ?? null } };
      },
    },
  };
}
