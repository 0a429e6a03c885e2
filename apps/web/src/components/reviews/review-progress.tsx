import type { ReviewProgress } from "@paravt/shared";

/** One bar split into resolved / triaged / open, with the counts beside it. */
export function ReviewProgressBar({ progress, label }: { progress: ReviewProgress; label: string }) {
  const pct = (n: number) => (progress.total ? (100 * n) / progress.total : 0);
  const done = Math.round(pct(progress.RESOLVED));
  return (
    <div className="flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={done}
        aria-valuemin={0}
        aria-valuemax={100}
        className="flex h-2 w-32 overflow-hidden rounded-full bg-surface-2"
        title={`${progress.RESOLVED} resolved · ${progress.TRIAGED} triaged · ${progress.OPEN} open`}
      >
        <div className="h-full bg-success" style={{ width: `${pct(progress.RESOLVED)}%` }} />
        <div className="h-full bg-warning" style={{ width: `${pct(progress.TRIAGED)}%` }} />
      </div>
      <span className="text-xs tabular-nums text-muted">
        {progress.RESOLVED}/{progress.total} resolved · {progress.TRIAGED} triaged
      </span>
    </div>
  );
}

export const STATUS_DOT: Record<string, string> = {
  OPEN: "bg-line",
  TRIAGED: "bg-warning",
  RESOLVED: "bg-success",
};
