import { cn } from "../ui/cn";

/** The overview sizes a needle suite records visibility for (packages/suite OVERVIEW_KS). */
const KS = [4, 8, 16, 32, 64];

/**
 * Whether a needle-suite question's evidence is visible in K overview frames, per K: visible in
 * green, "needs a crop" struck through (metadata.visibleAtK; the dataset table and grid).
 */
export function VisibleAtK({ visible, compact = false }: { visible: Record<string, boolean>; compact?: boolean }) {
  return (
    <div className="flex gap-1" aria-label="Evidence visible in the overview at K">
      {KS.map((k) => (
        <span
          key={k}
          title={visible[String(k)] ? `visible with ${k} overview frames` : `needs a crop at K=${k}`}
          className={cn(
            "rounded px-1",
            compact ? "text-[11px]" : "text-xs",
            visible[String(k)] ? "bg-success/15 text-success" : "bg-surface-2 text-muted line-through",
          )}
        >
          {k}
        </span>
      ))}
    </div>
  );
}
