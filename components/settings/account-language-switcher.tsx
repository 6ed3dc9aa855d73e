"use client";
// The dashboard's language switcher: the same control as everywhere, but the choice is saved on the
// signed-in user's account (which the pages prefer over the cookie), not only in this browser.
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { useAccountLocale } from "./use-account-locale";

export function AccountLanguageSwitcher() {
  const { choose, pending } = useAccountLocale();
  return <LanguageSwitcher onChoose={choose} pending={pending} />;
}
