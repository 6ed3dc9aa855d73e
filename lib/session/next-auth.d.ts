// The dashboard session carries our user id (next-auth's token subject) and the user's chosen
// language (null: their browser's), and nothing more.
import type { DefaultSession } from "next-auth";
import type { AppLocale } from "@/lib/i18n/locales";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string; locale: AppLocale | null };
  }
  interface User {
    locale?: AppLocale | null;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    locale?: AppLocale | null;
  }
}
