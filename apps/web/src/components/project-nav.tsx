"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "./ui/cn";

export function ProjectNav({ projectId, showOwnerTabs }: { projectId: string; showOwnerTabs: boolean }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  const tabs = [
    { href: base, label: "Overview" },
    { href: `${base}/videos`, label: "Videos" },
    { href: `${base}/datasets`, label: "Datasets" },
    { href: `${base}/models`, label: "Models" },
    { href: `${base}/training`, label: "Training" },
    { href: `${base}/evals`, label: "Evaluations" },
    { href: `${base}/compare`, label: "Compare" },
    { href: `${base}/reviews`, label: "Reviews" },
    { href: `${base}/jobs`, label: "Jobs" },
    { href: `${base}/members`, label: "Members" },
    { href: `${base}/api`, label: "API" },
    ...(showOwnerTabs ? [{ href: `${base}/tokens`, label: "API tokens" }] : []),
  ];
  return (
    <nav aria-label="Project" className="mb-6 flex gap-1 overflow-x-auto border-b border-line">
      {tabs.map((t) => {
        const active = t.href === base ? pathname === base : pathname.startsWith(t.href);
        return (
          <Link
            key={t.href}
            href={t.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm whitespace-nowrap",
              active ? "border-accent font-medium text-fg" : "border-transparent text-muted hover:text-fg",
            )}
          >
            {t.label}
          </Link>
        );
      })}
    </nav>
  );
}
