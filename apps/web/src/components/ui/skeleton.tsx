// Loading placeholders in the app's tokens (issue 41 item 10): grey blocks shaped like the page that
// is coming, used by the route segments' loading.tsx and while a project loads. Server-safe (no
// hooks), announced once to assistive technology by the wrapper's role="status".
import type { ReactNode } from "react";
import { cn } from "./cn";

/** One grey block; size it with className (h-4 w-40, …). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded-md bg-surface-2", className)} />;
}

/** The wrapper of a page's placeholders: role="status", "Loading…" for screen readers. */
export function SkeletonPage({ children, label = "Loading…" }: { children: ReactNode; label?: string }) {
  return (
    <div role="status" aria-busy="true" aria-live="polite" data-testid="page-skeleton" className="flex flex-col gap-6">
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}

/** A page title with its description line. */
export function SkeletonHeader() {
  return (
    <div className="flex flex-col gap-2">
      <Skeleton className="h-7 w-56" />
      <Skeleton className="h-4 w-96 max-w-full" />
    </div>
  );
}

/** A card holding `rows` table rows. */
export function SkeletonTable({ rows = 5 }: { rows?: number }) {
  return (
    <div className="rounded-lg border border-line bg-surface p-5">
      <Skeleton className="mb-4 h-5 w-40" />
      <div className="flex flex-col gap-3">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="h-4 w-full" />
        ))}
      </div>
    </div>
  );
}

/** A grid of `count` cards of height `height` (stat tiles, charts). */
export function SkeletonCards({
  count = 4,
  height = "h-20",
  columns = "lg:grid-cols-4",
}: {
  count?: number;
  height?: string;
  columns?: string;
}) {
  return (
    <div className={cn("grid grid-cols-1 gap-4 sm:grid-cols-2", columns)}>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="rounded-lg border border-line bg-surface p-4">
          <Skeleton className="h-3 w-20" />
          <Skeleton className={cn("mt-3 w-full", height)} />
        </div>
      ))}
    </div>
  );
}

/** The generic page: a header and a table (a project's pages while the project loads). */
export function PageSkeleton() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonTable />
    </SkeletonPage>
  );
}
