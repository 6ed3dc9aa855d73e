"use client";
import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const t = useTranslations("dashboard.shell");
  return (
    <Button variant="ghost" size="sm" onClick={() => void signOut({ callbackUrl: "/sign-in" })}>
      {t("signOut")}
    </Button>
  );
}
