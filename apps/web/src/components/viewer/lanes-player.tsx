"use client";
import type { CompareSampleOutput } from "@paravt/shared";
import { useCallback, useRef, useState } from "react";
import { PLAYER_HOTKEYS, playerKeys, useHotkeys } from "@/lib/use-hotkeys";
import { VideoPlayer, type Player } from "../video-player";
import { usePlaybackClockState } from "@/lib/playback-clock";
import { stepWindow, windowsInTimeOrder, type LaneGroup, type LaneWindow } from "./lane-model";
import { TimelineLanes } from "./timeline-lanes";
import { TimeReadout } from "./time-readout";
import { WindowPopover } from "./window-popover";

/** Frame step of ← / → (the compared sample's probe does not carry its frame rate). */
const DEFAULT_FPS = 30;

/** The keys of a player over several episodes: the episode viewer's player keys, then window stepping. */
export const LANES_PLAYER_HOTKEYS: [string, string][] = [
  ...PLAYER_HOTKEYS,
  ["[ / ]", "previous / next crop window of the selected lane group"],
];

/**
 * One player for a sample's video and, under it, several episodes' lanes stacked on one shared
 * time axis (TimelineLanes, one group per episode: the models of a comparison, the rollouts of a
 * GRPO group). Clicking a crop window seeks the player to its start; hovering one shows what it
 * gave the model (WindowPopover). The playhead and time readout follow the player through a
 * playback clock, so playing re-renders only them. The episode viewer's player keys work here too
 * (useHotkeys): Space, j / l, ← / →, and [ / ] step through the selected group's windows (the
 * first group's when none is selected), unless `windowKeys` is false (a page that gives [ / ]
 * another meaning).
 */
export function LanesPlayer({
  video,
  groups,
  label,
  empty,
  windowKeys = true,
}: {
  video: CompareSampleOutput["video"];
  groups: LaneGroup[];
  /** The lanes section's accessible name ("Lanes per model"). */
  label: string;
  /** What to say while no group has an episode. */
  empty: string;
  windowKeys?: boolean;
}) {
  const player = useRef<Player | null>(null);
  const clock = usePlaybackClockState(0);
  const box = useRef<HTMLElement>(null);
  const [selected, setSelected] = useState<{ groupId: string; windowId: string } | null>(null);
  const [hover, setHover] = useState<{ window: LaneWindow; x: number; y: number } | null>(null);
  // The probed duration; before the probe, the latest time any episode looked at.
  const duration =
    video?.durationS ??
    Math.max(
      0,
      ...groups.flatMap((g) => [...g.overviewTimestamps, ...g.turns.flatMap((t) => t.windows.map((w) => w.endS))]),
    );
  const seek = useCallback(
    (t: number) => {
      const clamped = Math.min(Math.max(0, t), duration > 0 ? duration : Infinity);
      player.current?.currentTime(clamped);
      clock.set(clamped);
    },
    [clock, duration],
  );
  const select = useCallback(
    (w: LaneWindow, g: LaneGroup) => {
      setSelected({ groupId: g.id, windowId: w.id });
      seek(w.startS);
    },
    [seek],
  );
  const onHoverWindow = useCallback((h: { window: LaneWindow; rect: DOMRect } | null) => {
    const outer = box.current?.getBoundingClientRect();
    if (!h || !outer) return setHover(null);
    setHover({ window: h.window, x: h.rect.left + h.rect.width / 2 - outer.left, y: h.rect.bottom - outer.top });
  }, []);

  const stepSelection = (direction: 1 | -1) => {
    const g = groups.find((x) => x.id === selected?.groupId) ?? groups[0];
    if (!g) return;
    const w = stepWindow(
      windowsInTimeOrder(g),
      selected?.groupId === g.id ? selected.windowId : null,
      clock.get(),
      direction,
    );
    if (w) select(w, g);
  };
  useHotkeys({
    ...playerKeys(player, seek, () => clock.get(), DEFAULT_FPS),
    ...(windowKeys ? { "[": () => stepSelection(-1), "]": () => stepSelection(1) } : {}),
  });
  const hotkeys = windowKeys ? LANES_PLAYER_HOTKEYS : PLAYER_HOTKEYS;

  return (
    <div className="flex min-w-0 flex-col gap-3">
      {video ? (
        <div className="mx-auto w-full max-w-3xl">
          <VideoPlayer
            src={`/api/videos/${video.id}/file`}
            {...(video.hasThumbnail ? { poster: `/api/videos/${video.id}/thumbnail` } : {})}
            onReady={(p) => {
              player.current = p;
            }}
            onTime={(t) => clock.set(t)}
          />
        </div>
      ) : (
        <p className="rounded-lg border border-dashed border-line p-6 text-center text-sm text-muted">
          The sample has no video.
        </p>
      )}
      <section ref={box} aria-label={label} className="relative rounded-lg border border-line bg-surface p-3">
        <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <TimeReadout clock={clock} duration={duration} />
          <span className="ml-auto text-xs text-muted" data-testid="compare-hotkeys">
            {hotkeys.map(([key, what]) => (
              <span key={key} className="ml-2 inline-block">
                <kbd className="rounded border border-line bg-surface-2 px-1 font-mono">{key}</kbd> {what}
              </span>
            ))}
          </span>
        </div>
        {groups.length > 0 && duration > 0 ? (
          <TimelineLanes
            groups={groups}
            duration={duration}
            currentTime={clock}
            selected={selected}
            onSeek={seek}
            onSelectWindow={select}
            onHoverWindow={onHoverWindow}
          />
        ) : (
          <p className="text-center text-sm text-muted">{empty}</p>
        )}
        {hover && (
          // No filmstrip: the sample's video does not say whether it has one.
          <WindowPopover window={hover.window} x={hover.x} y={hover.y} videoId={video?.id ?? null} filmstrip={null} />
        )}
      </section>
    </div>
  );
}
