"use client";
import { filmstripTileAt, type FilmstripIndex } from "@paravt/video/sampling";
import { useRef, useState, type MouseEvent } from "react";
import { cn } from "./ui/cn";

/** Seconds as the protocol states them to the model: `<12.0 seconds>` style, one decimal (SPEC §1). */
export function formatSeconds(t: number): string {
  return `${t.toFixed(1)} s`;
}

/**
 * The scrubber under the player: the K overview-frame ticks (what the main agent saw), the
 * playhead, and a filmstrip preview on hover. Positions are `t / duration` of the track width,
 * the same formula the sampler uses, so a tick sits exactly where its frame was taken.
 */
export function VideoTimeline({
  duration,
  currentTime,
  ticks,
  filmstrip,
  sheetUrl,
  onSeek,
}: {
  duration: number;
  currentTime: number;
  ticks: number[];
  filmstrip: (FilmstripIndex & { duration: number }) | null;
  sheetUrl: (sheet: number) => string;
  onSeek: (t: number) => void;
}) {
  const track = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ t: number; x: number } | null>(null);

  const timeAt = (e: MouseEvent) => {
    const rect = track.current!.getBoundingClientRect();
    const x = Math.min(Math.max(0, e.clientX - rect.left), rect.width);
    return { t: (x / rect.width) * duration, x };
  };
  const tile =
    hover && filmstrip ? filmstrip.frames[filmstripTileAt(hover.t, duration, filmstrip.frames.length)] : undefined;
  const pct = (t: number) => `${(t / duration) * 100}%`;

  return (
    <div className="relative select-none pt-2">
      <div
        ref={track}
        data-testid="timeline-track"
        role="slider"
        aria-label="Timeline"
        aria-valuemin={0}
        aria-valuemax={duration}
        aria-valuenow={currentTime}
        tabIndex={-1}
        className="relative h-10 cursor-pointer rounded-md border border-line bg-surface-2"
        onMouseMove={(e) => setHover(timeAt(e))}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => onSeek(timeAt(e).t)}
      >
        <div className="absolute inset-y-0 left-0 rounded-l-md bg-accent/15" style={{ width: pct(currentTime) }} />
        {ticks.map((t, i) => (
          <button
            key={i}
            type="button"
            data-testid="overview-tick"
            data-t={t}
            aria-label={`Overview frame ${i + 1} at ${formatSeconds(t)}`}
            title={`Overview frame ${i + 1} · ${formatSeconds(t)}`}
            onClick={(e) => {
              e.stopPropagation();
              onSeek(t);
            }}
            className="absolute top-1 bottom-1 w-[3px] -translate-x-1/2 rounded-full bg-accent/70 hover:bg-accent focus-visible:bg-accent"
            style={{ left: pct(t) }}
          />
        ))}
        <div
          data-testid="playhead"
          className="pointer-events-none absolute -top-1 -bottom-1 w-0.5 -translate-x-1/2 bg-fg"
          style={{ left: pct(currentTime) }}
        />
      </div>
      {hover && (
        <div
          className="pointer-events-none absolute bottom-12 z-10 -translate-x-1/2 rounded-md border border-line bg-surface p-1 shadow-lg"
          style={{ left: hover.x }}
          data-testid="filmstrip-preview"
        >
          {tile && filmstrip && (
            <div
              className={cn("rounded-sm")}
              style={{
                width: filmstrip.tileWidth,
                height: filmstrip.tileHeight,
                backgroundImage: `url(${sheetUrl(tile.sheet)})`,
                backgroundPosition: `-${tile.x}px -${tile.y}px`,
              }}
            />
          )}
          <div className="px-1 pt-0.5 text-center font-mono text-xs tabular-nums">{formatSeconds(hover.t)}</div>
        </div>
      )}
    </div>
  );
}
