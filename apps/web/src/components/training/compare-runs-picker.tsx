"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/client";
import { MAX_OVERLAY_RUNS, overlayHref } from "./overlay";

// The compare page imports the bound from here.
export { MAX_OVERLAY_RUNS };

/** Picks other training runs of the project to overlay with this one. */
export function CompareRunsPicker({ projectId, runId }: { projectId: string; runId: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const runs = useQuery({ ...trpc.runs.list.queryOptions({ projectId, limit: 200 }), enabled: open });
  const others = (runs.data ?? []).filter((r) => (r.kind === "sft" || r.kind === "rl") && r.id !== runId);
  if (!open)
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Compare…
      </Button>
    );
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-line bg-surface px-4 py-3 text-sm">
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">Runs to compare</legend>
        {runs.isPending && <span className="text-muted">Loading runs…</span>}
        {runs.data && others.length === 0 && (
          <span className="text-muted">No other training runs in this project.</span>
        )}
        {others.map((r) => (
          <label key={r.id} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={picked.includes(r.id)}
              disabled={!picked.includes(r.id) && picked.length >= MAX_OVERLAY_RUNS - 1}
              onChange={(e) => setPicked(e.target.checked ? [...picked, r.id] : picked.filter((p) => p !== r.id))}
            />
            {r.name}
          </label>
        ))}
      </fieldset>
      {picked.length > 0 ? (
        <Link
          href={overlayHref(projectId, [runId, ...picked])}
          className="rounded-md bg-accent px-3 py-1 font-medium text-accent-fg"
        >
          Overlay {picked.length + 1} runs
        </Link>
      ) : (
        <span className="text-xs text-muted">pick up to {MAX_OVERLAY_RUNS - 1}</span>
      )}
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Close
      </Button>
    </div>
  );
}
