import { useTranslations } from "next-intl";
import Link from "next/link";
import type { ReactNode } from "react";
import { roleAtLeast, type Role } from "@/lib/auth/roles";
import { AccountLanguageSwitcher } from "@/components/settings/account-language-switcher";
import { HeaderMenu } from "./header-menu";
import { NavLink } from "./nav-link";
import { OrgSwitcher } from "./org-switcher";
import { SignOutButton } from "./sign-out-button";

export function DashboardShell({
  user,
  org,
  role,
  memberships,
  children,
}: {
  user: { name: string | null; email: string };
  org: { id: string; name: string };
  role: Role;
  memberships: { id: string; name: string; role: Role }[];
  children: ReactNode;
}) {
  const t = useTranslations("dashboard.nav");
  const tShell = useTranslations("dashboard.shell");
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("skip")}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2 sm:px-6 md:py-3">
          <Link
            href="/missions"
            prefetch={false}
            className="text-base font-semibold tracking-tight text-emerald-800 focus-visible:outline-2 focus-visible:outline-emerald-600"
          >
            {tShell("brand")}
          </Link>
          <HeaderMenu>
            <nav aria-label={t("label")} className="flex flex-col gap-1 md:flex-row md:flex-wrap">
              <NavLink href="/missions">{t("missions")}</NavLink>
              <NavLink href="/orders">{t("orders")}</NavLink>
              {roleAtLeast(role, "admin") ? <NavLink href="/webhooks">{t("webhooks")}</NavLink> : null}
              {roleAtLeast(role, "admin") ? <NavLink href="/settings/credentials">{t("credentials")}</NavLink> : null}
              {/* Your own settings (the dashboard's language), reachable on a phone too. */}
              <NavLink href="/settings" exact>
                {t("settings")}
              </NavLink>
              <NavLink href="/docs">{t("docs")}</NavLink>
            </nav>
            <div className="flex max-w-full flex-wrap items-center gap-3 border-t border-slate-200 pt-3 md:ms-auto md:justify-end md:border-0 md:pt-0">
              <AccountLanguageSwitcher />
              <OrgSwitcher current={org.id} memberships={memberships} />
              <div className="min-w-0 text-xs leading-tight text-slate-600 md:text-end">
                {/* Your own settings (the dashboard's language) are behind your name. */}
                <Link href="/settings" className="block truncate font-medium text-slate-900 underline-offset-2 hover:underline">
                  {user.name ?? user.email}
                </Link>
                <div>{tShell(`roles.${role}`)}</div>
              </div>
              <SignOutButton />
            </div>
          </HeaderMenu>
        </div>
      </header>
      <main id="main" className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
