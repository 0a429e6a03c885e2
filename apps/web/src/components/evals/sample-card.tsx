"use client";
import type { GridVideo } from "@paravt/shared";
import Link from "next/link";
import type { ReactNode, Ref } from "react";
import { cn } from "../ui/cn";
import { useFilmstrip } from "../viewer/filmstrip-tiles";
import { laneBg, laneBorder } from "../viewer/lane-colors";
import { CARD_TILES, cardTiles, type MiniTimeline } from "./sample-grid-model";

const secs = (t: number) => `${t.toFixed(1)} s`;

/**
 * A strip of filmstrip tiles: one sprite sheet request per sheet of the video (at most two), a
 * tile picked by background-position, never a frame request per tile.
 */
function CardFilmstrip({ video, times }: { video: GridVideo | null; times: readonly number[] }) {
  const strip = useFilmstrip(video?.id ?? null, Boolean(video?.hasFilmstrip));
  const tiles = strip.data ? cardTiles(strip.data, times) : [];
  if (!video || !video.hasFilmstrip || strip.isError) {
    return (
      <div className="flex aspect-[6/1] items-center justify-center rounded bg-surface-2 text-xs text-muted">
        {video ? "no filmstrip yet" : "no video"}
      </div>
    );
  }
  if (tiles.length === 0) return <div className="aspect-[6/1] animate-pulse rounded bg-surface-2" />;
  return (
    <div className="grid gap-0.5" style={{ gridTemplateColumns: `repeat(${CARD_TILES}, minmax(0, 1fr))` }}>
      {tiles.map((tile) => (
        <div
          key={tile.sheet * 10_000 + tile.tileT}
          data-testid="card-tile"
          data-t={tile.t}
          title={
            times.length > 0
              ? `nearest filmstrip tile, t=${secs(tile.tileT)} (overview frame at ${secs(tile.t)})`
              : `filmstrip tile, t=${secs(tile.tileT)}`
          }
          className="rounded-sm bg-surface-2 bg-no-repeat"
          style={{
            aspectRatio: String(tile.aspect),
            backgroundImage: `url(/api/videos/${video.id}/filmstrip/${tile.sheet})`,
            backgroundSize: tile.size,
            backgroundPosition: tile.position,
          }}
        />
      ))}
    </div>
  );
}

const SUB_ROW_PX = 4;

/**
 * The video's duration as a bar: overview timestamps as ticks, each turn's crop windows in the
 * viewer's lane colours (one per call index), grounding spans (reference above, prediction below).
 */
function MiniTimelineBar({ timeline, overviewCount }: { timeline: MiniTimeline; overviewCount: number }) {
  const windows = timeline.lanes.reduce((n, l) => n + l.windows.length, 0);
  const shown = timeline.ticks.length;
  return (
    <div
      className="flex flex-col gap-px"
      data-testid="mini-timeline"
      data-duration={timeline.duration}
      role="img"
      aria-label={[
        `Timeline of ${secs(timeline.duration)}`,
        overviewCount > 0 ? `${overviewCount} overview frames` : null,
        windows > 0 ? `${windows} crop windows` : null,
        timeline.truth ? `reference span ${secs(timeline.truth.startS)} – ${secs(timeline.truth.endS)}` : null,
      ]
        .filter(Boolean)
        .join(", ")}
    >
      <div
        className="relative h-2 rounded-sm bg-surface-2"
        title={
          overviewCount === 0
            ? `${secs(timeline.duration)}`
            : shown < overviewCount
              ? `${secs(timeline.duration)}: ${shown} of ${overviewCount} overview timestamps (evenly picked)`
              : `${secs(timeline.duration)}: ${overviewCount} overview timestamps`
        }
      >
        {timeline.ticks.map((tick, i) => (
          <span
            key={i}
            data-testid="card-tick"
            className="absolute inset-y-0 w-px -translate-x-1/2 bg-accent/80"
            style={{ left: `${tick.leftPct}%` }}
          />
        ))}
      </div>
      {timeline.lanes.map((lane) => (
        <div
          key={lane.turn}
          className="relative rounded-sm bg-surface-2/60"
          style={{ height: lane.rows * SUB_ROW_PX }}
          data-turn={lane.turn}
        >
          {lane.windows.map((w) => (
            <span
              key={w.id}
              data-testid="card-window"
              data-window={w.id}
              title={`turn ${w.turn + 1} · call ${w.call + 1}: ${secs(w.startS)} – ${secs(w.endS)}${w.status === "OK" ? "" : ` (${w.status.toLowerCase()})`}`}
              className={cn(
                "absolute box-border rounded-[1px]",
                w.status === "OK" ? cn(laneBg(w.call), "opacity-80") : cn("border border-dashed", laneBorder(w.call)),
              )}
              style={{
                left: `${w.leftPct}%`,
                width: `max(2px, ${w.widthPct}%)`,
                top: w.row * SUB_ROW_PX,
                height: SUB_ROW_PX - 1,
              }}
            />
          ))}
        </div>
      ))}
      {(timeline.truth || timeline.predicted) && (
        <div className="relative h-[7px] rounded-sm bg-surface-2/60">
          {timeline.truth && (
            <span
              data-testid="card-gt-span"
              title={`ground truth: ${secs(timeline.truth.startS)} – ${secs(timeline.truth.endS)}`}
              className="absolute top-0 h-[3px] rounded-[1px] bg-success/70"
              style={{ left: `${timeline.truth.leftPct}%`, width: `max(2px, ${timeline.truth.widthPct}%)` }}
            />
          )}
          {timeline.predicted && (
            <span
              data-testid="card-predicted-span"
              title={`predicted: ${secs(timeline.predicted.startS)} – ${secs(timeline.predicted.endS)}`}
              className="absolute bottom-0 h-[3px] rounded-[1px] bg-warning/70"
              style={{ left: `${timeline.predicted.leftPct}%`, width: `max(2px, ${timeline.predicted.widthPct}%)` }}
            />
          )}
        </div>
      )}
    </div>
  );
}

/**
 * One sample as a card (the eval run grid and the dataset grid): a filmstrip strip, chips, the
 * question's first line, the mini timeline and a footer. The whole card is one link; the grid
 * gives it its tab stop and focus (`tabIndex`, `linkRef`).
 */
export function SampleCard({
  href,
  label,
  sampleKey,
  question,
  video,
  times,
  timeline,
  overviewCount,
  chips,
  footer,
  tabIndex,
  current,
  linkRef,
  onFocus,
}: {
  href: string;
  /** The link's accessible name. */
  label: string;
  sampleKey: string;
  question: string;
  video: GridVideo | null;
  /** Times the tiles stand for (overview timestamps); empty: evenly over the video. */
  times: readonly number[];
  timeline: MiniTimeline | null;
  overviewCount: number;
  chips: ReactNode;
  footer?: ReactNode;
  tabIndex: number;
  current: boolean;
  linkRef?: Ref<HTMLAnchorElement>;
  onFocus?: () => void;
}) {
  return (
    <li className="min-w-0">
      <Link
        ref={linkRef}
        href={href}
        aria-label={label}
        aria-current={current ? "true" : undefined}
        tabIndex={tabIndex}
        onFocus={onFocus}
        data-testid="sample-card"
        className={cn(
          "flex h-full flex-col gap-2 rounded-lg border bg-surface p-2 outline-none transition-colors",
          "hover:border-accent/60 focus-visible:ring-2 focus-visible:ring-accent",
          current ? "border-accent" : "border-line",
        )}
      >
        <CardFilmstrip video={video} times={times} />
        <div className="flex flex-wrap items-center gap-1">
          <span className="mr-1 truncate font-mono text-xs text-muted" title={sampleKey}>
            {sampleKey}
          </span>
          {chips}
        </div>
        <p className="line-clamp-2 text-sm" title={question}>
          {question}
        </p>
        <div className="mt-auto flex flex-col gap-1">
          {timeline ? (
            <MiniTimelineBar timeline={timeline} overviewCount={overviewCount} />
          ) : (
            <p className="text-xs text-muted">{video ? "no duration yet: the video is not probed" : "no video"}</p>
          )}
          {footer && <div className="flex flex-wrap gap-x-3 text-xs text-muted">{footer}</div>}
        </div>
      </Link>
    </li>
  );
}
