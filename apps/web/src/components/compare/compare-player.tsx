"use client";
import type { CompareColumnOutput, CompareSampleOutput } from "@paravt/shared";
import { useCallback, useMemo, useRef, useState } from "react";
import { MODE_LABEL } from "../evals/format";
import { VideoPlayer, type Player } from "../video-player";
import { laneGroupOf, TimelineLanes, usePlaybackClockState, type LaneGroup, type LaneWindow } from "../viewer";

/** The label of a model's lane group: its position in the table, the model, mode and K. */
export function columnLabel(c: CompareColumnOutput, i: number): string {
  return `${i + 1}. ${c.run.model?.name ?? "deleted model"} · ${MODE_LABEL[c.run.mode]} · K=${c.run.k}`;
}

/**
 * One player for the sample's video and, under it, every compared model's lanes stacked on one
 * shared time axis (the viewer's TimelineLanes, one group per model). Clicking a crop window
 * seeks the player to its start; the playhead follows the player through a playback clock so
 * playing re-renders only the playhead.
 */
export function ComparePlayer({ sample, columns }: { sample: CompareSampleOutput; columns: CompareColumnOutput[] }) {
  const player = useRef<Player | null>(null);
  const clock = usePlaybackClockState(0);
  const [selected, setSelected] = useState<{ groupId: string; windowId: string } | null>(null);
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
      player.current?.currentTime(t);
      clock.set(t);
    },
    [clock],
  );
  const select = useCallback(
    (w: LaneWindow, g: LaneGroup) => {
      setSelected({ groupId: g.id, windowId: w.id });
      seek(w.startS);
    },
    [seek],
  );
  const video = sample.video;
  return (
    <div className="flex flex-col gap-3">
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
      <section aria-label="Lanes per model" className="rounded-lg border border-line bg-surface p-3">
        {groups.length > 0 && duration > 0 ? (
          <TimelineLanes
            groups={groups}
            duration={duration}
            currentTime={clock}
            selected={selected}
            onSeek={seek}
            onSelectWindow={select}
          />
        ) : (
          <p className="text-center text-sm text-muted">No episode stored yet: lanes appear as each model finishes.</p>
        )}
      </section>
    </div>
  );
}
