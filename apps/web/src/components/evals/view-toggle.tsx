"use client";
import { cn } from "../ui/cn";
import type { SamplesView } from "./sample-filters";

const VIEWS: { view: SamplesView; label: string }[] = [
  { view: "table", label: "Table" },
  { view: "grid", label: "Grid" },
];

/**
 * "Table | Grid": which view shows the samples (`?view=grid`, sample-filters.ts), on an eval run
 * (the filters drive both) and on a dataset.
 */
export function ViewToggle({ view, onChange }: { view: SamplesView; onChange: (view: SamplesView) => void }) {
  return (
    <div role="radiogroup" aria-label="Samples view" className="flex h-8 rounded-md border border-line p-0.5">
      {VIEWS.map((v) => (
        <button
          key={v.view}
          type="button"
          role="radio"
          aria-checked={view === v.view}
          onClick={() => onChange(v.view)}
          className={cn(
            "rounded px-3 text-sm",
            view === v.view ? "bg-accent text-accent-fg" : "text-muted hover:bg-surface-2 hover:text-fg",
          )}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
