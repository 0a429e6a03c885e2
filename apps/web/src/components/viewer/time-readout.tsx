"use client";
import { usePlaybackTime, type PlaybackClock } from "@/lib/playback-clock";

/** "12.3 s / 60.0 s": the clock's time and the duration; re-renders on its own as the clock moves. */
export function TimeReadout({ clock, duration }: { clock: PlaybackClock; duration: number }) {
  const t = usePlaybackTime(clock);
  return (
    <span className="font-mono text-xs tabular-nums text-muted" data-testid="current-time">
      {t.toFixed(1)} s / {duration.toFixed(1)} s
    </span>
  );
}
