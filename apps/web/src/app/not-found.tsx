import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

/**
 * Every URL that matches no page (and every notFound()): the app's own styles under the root
 * layout, with the way back, instead of the framework's unstyled page.
 */
export default function NotFound() {
  return (
    <main className="grid min-h-screen place-items-center px-6">
      <div className="w-full max-w-md rounded-lg border border-line bg-surface p-8 text-center">
        <span className="mx-auto grid h-10 w-10 place-items-center rounded-md bg-accent text-sm font-bold text-accent-fg">
          PV
        </span>
        <p className="mt-4 text-sm font-medium text-muted">404</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Page not found</h1>
        <p className="mt-2 text-sm text-muted">This address matches no page of the workbench.</p>
        <Link
          href="/projects"
          className="mt-6 inline-flex h-9 items-center rounded-md bg-accent px-4 text-sm font-medium text-accent-fg hover:opacity-90"
        >
          Back to your projects
        </Link>
      </div>
    </main>
  );
}
