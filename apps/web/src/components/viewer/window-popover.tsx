"use client";
import { cn } from "../ui/cn";
import { FilmstripTiles, pickEven, type Filmstrip } from "./filmstrip-tiles";
import { laneBg } from "./lane-colors";
import type { LaneWindow } from "./lane-model";

/**
 * What a crop window gave the main agent: its sub-agent's summary (or the evaluator-style tool
 * response) and a few of its frames. Placed by the caller over the window (`x` in px of its
 * positioned container, `y` the window's bottom).
 */
export function WindowPopover({
  window: w,
  x,
  y,
  videoId,
  filmstrip,
}: {
  window: LaneWindow;
  x: number;
  y: number;
  videoId: string | null;
  filmstrip: Filmstrip | null;
}) {
  const frames = pickEven(w.frameTimestamps, 4);
  return (
    <div
      role="tooltip"
      data-testid="window-popover"
      className="pointer-events-none absolute z-30 flex w-max max-w-md -translate-x-1/2 flex-col gap-2 rounded-md border border-line bg-surface p-2 text-xs shadow-xl"
      style={{ left: x, top: y + 6 }}
    >
      <div className="flex items-center gap-2">
        <span className={cn("inline-block size-2.5 rounded-sm", laneBg(w.call))} />
        <span className="font-semibold">
          Turn {w.turn + 1} · call {w.call + 1}
        </span>
        <span className="font-mono text-muted">
          {w.startS.toFixed(1)}–{w.endS.toFixed(1)} s{w.clamped ? " (clamped)" : ""}
        </span>
        {w.status !== "OK" && <span className="text-danger">{w.status.toLowerCase()}</span>}
      </div>
      {videoId && filmstrip && frames.length > 0 && (
        <FilmstripTiles videoId={videoId} filmstrip={filmstrip} times={frames} scale={0.75} />
      )}
      <p className="line-clamp-6 whitespace-pre-wrap text-fg" data-testid="window-summary">
        {w.error ?? w.summary ?? "No output was stored for this call."}
      </p>
    </div>
  );
}
