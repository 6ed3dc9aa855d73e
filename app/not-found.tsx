// Any address nobody serves, and every notFound() of a page (an order or mission that does not
// exist): the app's own look and a way back, instead of Next's bare default (whose inline style
// the pages' CSP refuses).
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export const metadata: Metadata = { title: "Page not found" };

const tall = "min-h-11 w-full sm:w-auto";

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="flex flex-col gap-2">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">Photo Missions</p>
          <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
          <p className="text-slate-600">
            There is nothing at this address. The link may be mistyped, or what it pointed to — a mission, an order — may not exist,
            or belong to another organisation.
          </p>
        </div>
        <nav aria-label="Ways back" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <Link href="/missions" className={`${buttonClasses()} ${tall}`}>
            Go to your missions
          </Link>
          <Link href="/orders" className={`${buttonClasses({ variant: "secondary" })} ${tall}`}>
            Orders
          </Link>
          <Link href="/" className={`${buttonClasses({ variant: "secondary" })} ${tall}`}>
            Home page
          </Link>
        </nav>
        <p className="text-xs text-slate-500">
          Building against the API? The <Link href="/docs" className="underline hover:text-emerald-800">API reference</Link> lists every
          address it serves.
        </p>
      </div>
    </main>
  );
}
