"use client";
import type { CompareColumnOutput, CompareSampleOutput } from "@paravt/shared";
import { useCallback, useMemo, useRef, useState } from "react";
import { PLAYER_HOTKEYS, playerKeys, useHotkeys } from "@/lib/use-hotkeys";
import { MODE_LABEL } from "../evals/format";
import { VideoPlayer, type Player } from "../video-player";
import {
  laneGroupOf,
  stepWindow,
  TimelineLanes,
  TimeReadout,
  usePlaybackClockState,
  WindowPopover,
  windowsInTimeOrder,
  type LaneGroup,
  type LaneWindow,
} from "../viewer";

/** Frame step of ← / → (the compared sample's probe does not carry its frame rate). */
const DEFAULT_FPS = 30;

/** The compare player's keys: the episode viewer's player keys, then window stepping. */
export const COMPARE_HOTKEYS: [string, string][] = [
  ...PLAYER_HOTKEYS,
  ["[ / ]", "previous / next crop window of the selected model"],
];

/** The label of a model's lane group: its position in the table, the model, mode and K. */
export function columnLabel(c: CompareColumnOutput, i: number): string {
  return `${i + 1}. ${c.run.model?.name ?? "deleted model"} · ${MODE_LABEL[c.run.mode]} · K=${c.run.k}`;
}

/**
 * One player for the sample's video and, under it, every compared model's lanes stacked on one
 * shared time axis (the viewer's TimelineLanes, one group per model). Clicking a crop window
 * seeks the player to its start; hovering one shows what it gave the model (the viewer's
 * WindowPopover). The playhead and time readout follow the player through a playback clock, so
 * playing re-renders only them. The episode viewer's player keys work here too (useHotkeys):
 * Space, j / l, ← / →, and [ / ] step through the selected model's windows (the first model's
 * when none is selected).
 */
export function ComparePlayer({ sample, columns }: { sample: CompareSampleOutput; columns: CompareColumnOutput[] }) {
  const player = useRef<Player | null>(null);
  const clock = usePlaybackClockState(0);
  const box = useRef<HTMLElement>(null);
  const [selected, setSelected] = useState<{ groupId: string; windowId: string } | null>(null);
  const [hover, setHover] = useState<{ window: LaneWindow; x: number; y: number } | null>(null);
  const groups: LaneGroup[] = useMemo(
    () => columns.flatMap((c, i) => (c.episode ? [laneGroupOf(c.episode, columnLabel(c, i))] : [])),
    [columns],
  );
  // The probed duration; before the probe, the latest time any episode looked at.
  const duration =
    sample.video?.durationS ??
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
    "[": () => stepSelection(-1),
    "]": () => stepSelection(1),
  });

  const video = sample.video;
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
      <section ref={box} aria-label="Lanes per model" className="relative rounded-lg border border-line bg-surface p-3">
        <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <TimeReadout clock={clock} duration={duration} />
          <span className="ml-auto text-xs text-muted" data-testid="compare-hotkeys">
            {COMPARE_HOTKEYS.map(([key, what]) => (
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
          <p className="text-center text-sm text-muted">No episode stored yet: lanes appear as each model finishes.</p>
        )}
        {hover && (
          // No filmstrip: the compared sample's video does not say whether it has one.
          <WindowPopover window={hover.window} x={hover.x} y={hover.y} videoId={video?.id ?? null} filmstrip={null} />
        )}
      </section>
    </div>
  );
}
