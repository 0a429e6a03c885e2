"use client";
import { memo, useCallback, useRef, type MouseEvent } from "react";
import { usePlaybackTime, type PlaybackClock } from "@/lib/playback-clock";
import { cn } from "../ui/cn";
import { laneBg, laneBorder } from "./lane-colors";
import { packRows, spanPct, timePct, type LaneGroup, type LaneSpan, type LaneWindow } from "./lane-model";

export interface TimelineLanesProps {
  /** One group per model/episode; a single group draws no group header. */
  groups: LaneGroup[];
  duration: number;
  /** A plain number re-renders the lanes on every change; a clock moves only the playhead. */
  currentTime: PlaybackClock | number;
  /** Selected window: `<turn>.<call>`, scoped to a group when several are shown. */
  selected: { groupId: string; windowId: string } | null;
  onSeek(t: number): void;
  onSelectWindow(w: LaneWindow, group: LaneGroup): void;
  /** Hover enter (with the window's box) and leave (null): for a popover owned by the caller. */
  onHoverWindow?(hover: { window: LaneWindow; group: LaneGroup; rect: DOMRect } | null): void;
}

const ROW_PX = 12;
const pct = (t: number, d: number) => `${timePct(t, d)}%`;
const fmt = (t: number) => `${t.toFixed(1)} s`;

function Label({ children }: { children: string }) {
  return <div className="truncate pr-2 text-right text-[11px] leading-none text-muted">{children}</div>;
}

/**
 * The episode timeline: per group (model) the K overview-frame ticks, one lane per main-agent turn
 * with that turn's parallel crop windows (one color per call index), and the grounding spans or the
 * answer marker. Everything is absolutely positioned at `time / duration` of the track, the same
 * formula as the sampler (`@paravt/video/sampling`), so a tick or window sits where its frames
 * were taken. The lanes are memoized on their data; only the playhead follows the clock.
 */
export function TimelineLanes({ currentTime, ...rest }: TimelineLanesProps) {
  const { duration, onSeek } = rest;
  const track = useRef<HTMLDivElement>(null);
  const seekAt = useCallback(
    (e: MouseEvent) => {
      const rect = track.current!.getBoundingClientRect();
      onSeek(Math.min(Math.max(0, ((e.clientX - rect.left) / rect.width) * duration), duration));
    },
    [duration, onSeek],
  );
  if (!(duration > 0)) return null;
  return (
    <div className="relative grid select-none grid-cols-[5.5rem_minmax(0,1fr)] gap-y-1" data-testid="timeline-lanes">
      {/* The ruler row doubles as the reference box for pixel positions (tests measure against it). */}
      <Label>time</Label>
      <div
        ref={track}
        data-testid="lanes-track"
        className="relative h-4 cursor-pointer border-b border-line"
        onClick={seekAt}
        role="slider"
        aria-label="Timeline"
        aria-valuemin={0}
        aria-valuemax={duration}
        aria-valuenow={typeof currentTime === "number" ? currentTime : undefined}
        tabIndex={-1}
      >
        <Ruler duration={duration} />
      </div>
      <LaneRows {...rest} seekAt={seekAt} />
      <div className="pointer-events-none absolute inset-y-0 right-0 left-[5.5rem]">
        <Playhead duration={duration} currentTime={currentTime} />
      </div>
    </div>
  );
}

const Ruler = memo(function Ruler({ duration }: { duration: number }) {
  // 5-8 labelled marks at a round step.
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  const step = steps.find((s) => duration / s <= 8) ?? 3600;
  const marks = Array.from({ length: Math.floor(duration / step) + 1 }, (_, i) => i * step);
  return marks.map((t) => (
    <span
      key={t}
      className="absolute top-0 -translate-x-1/2 font-mono text-[10px] leading-none text-muted first:translate-x-0"
      style={{ left: pct(t, duration) }}
    >
      {t >= 60 ? `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}` : `${t}s`}
    </span>
  ));
});

function Playhead({ duration, currentTime }: { duration: number; currentTime: PlaybackClock | number }) {
  const t = usePlaybackTime(currentTime);
  return (
    <div
      data-testid="lanes-playhead"
      data-t={t}
      className="absolute -top-0.5 -bottom-0.5 w-0.5 -translate-x-1/2 bg-fg"
      style={{ left: pct(t, duration) }}
    />
  );
}

type RowsProps = Omit<TimelineLanesProps, "currentTime"> & { seekAt(e: MouseEvent): void };

/** Everything but the playhead: re-renders only when the data or the selection changes. */
const LaneRows = memo(function LaneRows({
  groups,
  duration,
  selected,
  onSeek,
  onSelectWindow,
  onHoverWindow,
  seekAt,
}: RowsProps) {
  return groups.map((g) => (
    <div key={g.id} className="contents" role="group" aria-label={`Lanes of ${g.label}`} data-group={g.id}>
      {groups.length > 1 && (
        <div className="col-span-2 mt-1 truncate border-t border-line pt-1 text-xs font-semibold">{g.label}</div>
      )}
      <Label>{`overview (${g.overviewTimestamps.length})`}</Label>
      <div className="relative h-5 cursor-pointer rounded-sm bg-surface-2" onClick={seekAt} data-testid="overview-lane">
        {g.overviewTimestamps.map((t, i) => (
          <button
            key={i}
            type="button"
            data-testid="overview-tick"
            data-t={t}
            aria-label={`Overview frame ${i + 1} at ${fmt(t)}`}
            title={`Overview frame ${i + 1} · ${fmt(t)}`}
            onClick={(e) => {
              e.stopPropagation();
              onSeek(t); // exactly the frame's time, not the mouse position
            }}
            className="absolute top-0.5 bottom-0.5 w-[3px] -translate-x-1/2 rounded-full bg-accent/70 hover:bg-accent"
            style={{ left: pct(t, duration) }}
          />
        ))}
      </div>
      {g.turns.map((turn) => {
        const rows = packRows(turn.windows);
        const rowCount = Math.max(1, ...[...rows.values()].map((r) => r + 1));
        return (
          <div key={turn.index} className="contents">
            <Label>{`turn ${turn.index + 1}`}</Label>
            <div
              className="relative cursor-pointer rounded-sm bg-surface-2/60"
              style={{ height: rowCount * ROW_PX + 4 }}
              onClick={seekAt}
              data-testid="turn-lane"
              data-turn={turn.index}
            >
              {turn.windows.map((w) => {
                const isSel = selected?.groupId === g.id && selected.windowId === w.id;
                return (
                  <button
                    key={w.id}
                    type="button"
                    data-testid="crop-window"
                    data-window={w.id}
                    data-start={w.startS}
                    data-end={w.endS}
                    aria-pressed={isSel}
                    aria-label={`Turn ${w.turn + 1} call ${w.call + 1}: ${fmt(w.startS)} to ${fmt(w.endS)}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      onSelectWindow(w, g);
                    }}
                    onMouseEnter={(e) =>
                      onHoverWindow?.({ window: w, group: g, rect: e.currentTarget.getBoundingClientRect() })
                    }
                    onMouseLeave={() => onHoverWindow?.(null)}
                    onFocus={(e) =>
                      onHoverWindow?.({ window: w, group: g, rect: e.currentTarget.getBoundingClientRect() })
                    }
                    onBlur={() => onHoverWindow?.(null)}
                    className={cn(
                      "absolute box-border rounded-[3px] border outline-none",
                      laneBorder(w.call),
                      w.status === "OK"
                        ? cn(laneBg(w.call), "opacity-80 hover:opacity-100")
                        : "bg-transparent border-dashed",
                      isSel && "opacity-100 ring-2 ring-fg ring-offset-1 ring-offset-surface z-10",
                      "focus-visible:ring-2 focus-visible:ring-fg",
                    )}
                    style={{
                      left: pct(w.startS, duration),
                      width: `max(2px, ${spanPct(w.startS, w.endS, duration)}%)`,
                      top: 2 + (rows.get(w.id) ?? 0) * ROW_PX,
                      height: ROW_PX - 2,
                    }}
                  />
                );
              })}
            </div>
          </div>
        );
      })}
      {(g.groundTruth || g.predicted) && (
        <>
          <Label>span</Label>
          <div className="relative h-[26px] rounded-sm bg-surface-2/60" onClick={seekAt} data-testid="span-lane">
            <Span span={g.groundTruth} duration={duration} kind="truth" />
            <Span span={g.predicted} duration={duration} kind="predicted" />
          </div>
        </>
      )}
      {g.answer && (
        <>
          <Label>answer</Label>
          <div className="flex h-5 items-center gap-2 text-xs" data-testid="answer-marker">
            <span
              className={cn(
                "rounded-sm border px-1.5 font-mono",
                g.answer.correct === true && "border-success/40 bg-success/10 text-success",
                g.answer.correct === false && "border-warning/40 bg-warning/10 text-warning",
                g.answer.correct === null && "border-line text-muted",
              )}
              data-correct={String(g.answer.correct)}
            >
              {g.answer.correct === true ? "✓" : g.answer.correct === false ? "✗" : "?"}{" "}
              {truncate(g.answer.prediction ?? "no answer", 40)}
            </span>
            <span className="truncate text-muted">reference {truncate(g.answer.reference, 40)}</span>
          </div>
        </>
      )}
    </div>
  ));
});

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function Span({ span, duration, kind }: { span: LaneSpan | null; duration: number; kind: "truth" | "predicted" }) {
  if (!span) return null;
  return (
    <div
      data-testid={kind === "truth" ? "gt-span" : "predicted-span"}
      data-start={span.startS}
      data-end={span.endS}
      title={`${kind === "truth" ? "ground truth" : "predicted"}: ${fmt(span.startS)} – ${fmt(span.endS)}`}
      className={cn(
        "absolute h-[10px] rounded-[3px] border",
        kind === "truth" ? "top-0.5 border-success bg-success/40" : "top-[14px] border-warning bg-warning/40",
      )}
      style={{
        left: pct(span.startS, duration),
        width: `max(2px, ${spanPct(span.startS, span.endS, duration)}%)`,
      }}
    />
  );
}
