import type { Metadata, Viewport } from "next";
import localFont from "next/font/local";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages } from "next-intl/server";
import { pickNamespaces } from "@/lib/i18n/catalogue";
import { directionOf } from "@/lib/i18n/locales";
import { CLIENT_NAMESPACES } from "@/lib/i18n/namespaces";
import "./globals.css";

// Served from our origin (next/font/local): no request to a font CDN, works offline.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
  weight: "100 900",
});

export const metadata: Metadata = {
  title: { default: "Photo Missions", template: "%s · Photo Missions" },
  description: "Geotagged photography on demand: missions, submissions, QA and delivery.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: the Content-Security-Policy nonce (proxy.ts) is new each
  // time, and Next can only put it on the scripts of a page it renders for that request.
  await connection();
  const [locale, messages] = await Promise.all([getLocale(), getMessages()]);
  return (
    <html lang={locale} dir={directionOf(locale)} className={inter.variable}>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {/* The field page and the dashboard each send their own namespaces (their layouts). */}
        <NextIntlClientProvider messages={pickNamespaces(messages, CLIENT_NAMESPACES.site)}>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
