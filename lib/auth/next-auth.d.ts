// The dashboard session carries our user id (next-auth's token subject) and nothing more.
import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string };
  }
}
