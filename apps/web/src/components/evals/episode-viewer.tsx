"use client";
import type { EvalEpisodeOutput, VideoOutput } from "@paravt/shared";
import { memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from "react";
import { createPlaybackClock } from "@/lib/playback-clock";
import { PLAYER_HOTKEYS, playerKeys, useHotkeys } from "@/lib/use-hotkeys";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { VideoPlayer, type Player } from "../video-player";
import { useFilmstrip } from "../viewer/filmstrip-tiles";
import { laneGroupOf, parseWindowId, stepWindow, windowsInTimeOrder, type LaneWindow } from "../viewer/lane-model";
import { TimelineLanes } from "../viewer/timeline-lanes";
import { TimeReadout } from "../viewer/time-readout";
import { WindowPopover } from "../viewer/window-popover";
import { EpisodeTurn as EpisodeTurnView } from "./episode-turn";

const EpisodeTurn = memo(EpisodeTurnView);

/** Fallback frame step when the probe stored no frame rate. */
const DEFAULT_FPS = 30;
/** While playing, the URL's `t` is refreshed at most this often (history.replaceState, never push). */
const URL_TIME_EVERY_MS = 1000;

/** The viewer's keys (its `useHotkeys` keymap), as the help lists them. */
const EPISODE_HOTKEYS: [string, string][] = [
  ...PLAYER_HOTKEYS,
  ["[ / ]", "previous / next crop window (time order, all turns)"],
  ["Esc", "stop looping a window, close this help"],
  ["?", "show / hide this help"],
];

/** The URL state of the viewer (`?t=12.3&w=<turn>.<call>`), read once on mount. */
function readUrl(): { t: number | null; w: string | null } {
  const q = new URLSearchParams(window.location.search);
  const t = Number(q.get("t"));
  const w = q.get("w");
  return { t: q.has("t") && Number.isFinite(t) && t >= 0 ? t : null, w: parseWindowId(w) ? w : null };
}

function writeUrl(next: { t?: number; w?: string | null }) {
  const url = new URL(window.location.href);
  if (next.t !== undefined) url.searchParams.set("t", next.t.toFixed(1));
  if (next.w !== undefined) {
    if (next.w) url.searchParams.set("w", next.w);
    else url.searchParams.delete("w");
  }
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url.href);
}

/** What a page around the viewer may do with its player (the review panel's pinned comments). */
export interface EpisodeViewerControl {
  seek(t: number): void;
  currentTime(): number;
}

/**
 * The episode viewer: player, lanes (overview ticks, crop windows per turn, spans or answer) and
 * the transcript pane, kept in step: selecting a window in either selects and seeks it in both.
 * Current time lives in a playback clock, so playback re-renders only the playhead and readout.
 */
export function EpisodeViewer({
  projectId,
  episode: e,
  video,
  controlRef,
  extraHotkeys = [],
}: {
  projectId: string;
  episode: EvalEpisodeOutput;
  video: VideoOutput | null;
  controlRef?: Ref<EpisodeViewerControl>;
  /** More shortcuts of the page around the viewer, listed in the same help (one `?` for all). */
  extraHotkeys?: readonly (readonly [string, string])[];
}) {
  const player = useRef<Player | null>(null);
  const [clock] = useState(() => createPlaybackClock(0));
  const [selected, setSelected] = useState<string | null>(null);
  const [looping, setLooping] = useState<LaneWindow | null>(null);
  const [help, setHelp] = useState(false);
  const [hover, setHover] = useState<{ window: LaneWindow; x: number; y: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const loopRef = useRef<LaneWindow | null>(null);
  loopRef.current = looping;

  const duration = video?.durationS ?? 0;
  const fps = video?.fps && video.fps > 0 ? video.fps : DEFAULT_FPS;
  const playable = video !== null && (video.status === "READY" || video.status === "PROCESSING");
  const filmstrip = useFilmstrip(video?.id ?? null, video?.hasFilmstrip === true);
  const group = useMemo(() => laneGroupOf(e), [e]);
  const groups = useMemo(() => [group], [group]);
  const ordered = useMemo(() => windowsInTimeOrder(group), [group]);
  const byId = useMemo(() => new Map(ordered.map((w) => [w.id, w])), [ordered]);

  const seek = useCallback(
    (t: number, opts: { keepLoop?: boolean } = {}) => {
      const d = duration > 0 ? duration : Infinity;
      const clamped = Math.min(Math.max(0, t), d);
      if (!opts.keepLoop) setLooping(null);
      player.current?.currentTime(clamped);
      clock.set(clamped);
      writeUrl({ t: clamped });
    },
    [clock, duration],
  );

  useImperativeHandle(controlRef, () => ({ seek: (t: number) => seek(t), currentTime: () => clock.get() }), [
    seek,
    clock,
  ]);

  const select = useCallback(
    (w: LaneWindow, opts: { loop: boolean }) => {
      setSelected(w.id);
      writeUrl({ w: w.id });
      seek(w.startS, { keepLoop: true });
      setLooping(opts.loop ? w : null);
      if (opts.loop) void player.current?.play();
      // Bring the call into view in the transcript pane (the other direction of the link).
      document
        .querySelector(`[data-call="${w.id}"]`)
        ?.scrollIntoView({ block: "nearest", behavior: "instant" as ScrollBehavior });
    },
    [seek],
  );

  // Looping a window: a frame-accurate check (timeupdate fires only ~4 times a second).
  useEffect(() => {
    if (!looping) return;
    let raf = 0;
    const tick = () => {
      const p = player.current;
      const w = loopRef.current;
      if (p && w && !p.paused()) {
        const t = p.currentTime() ?? 0;
        if (t >= w.endS || t < w.startS - 0.25) p.currentTime(w.startS);
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [looping]);

  // URL -> view, once: `w` selects its window, `t` (else the window's start) is the time.
  const initial = useRef<{ t: number | null; w: string | null } | null>(null);
  useEffect(() => {
    const u = readUrl();
    initial.current = u;
    if (u.w && byId.has(u.w)) setSelected(u.w);
    const t = u.t ?? (u.w ? byId.get(u.w)?.startS : undefined);
    if (t !== undefined) clock.set(t);
  }, [byId, clock]);

  const onTime = useCallback(
    (t: number) => {
      clock.set(t);
      const p = player.current;
      if (p && !p.paused()) throttledUrlTime(t);
      else writeUrl({ t });
    },
    [clock],
  );

  // The keys of EPISODE_HOTKEYS.
  const stepSelection = (direction: 1 | -1) => {
    const w = stepWindow(ordered, selected, clock.get(), direction);
    if (w) select(w, { loop: false });
  };
  useHotkeys({
    ...playerKeys(player, seek, () => clock.get(), fps),
    "[": () => stepSelection(-1),
    "]": () => stepSelection(1),
    "?": () => setHelp((h) => !h),
    Escape: () => {
      if (help) setHelp(false);
      else setLooping(null);
    },
  });

  const onSelectWindow = useCallback((w: LaneWindow) => select(w, { loop: true }), [select]);
  const onSeek = useCallback((t: number) => seek(t), [seek]);
  const onHoverWindow = useCallback((h: { window: LaneWindow; rect: DOMRect } | null) => {
    const outer = box.current?.getBoundingClientRect();
    if (!h || !outer) return setHover(null);
    setHover({ window: h.window, x: h.rect.left + h.rect.width / 2 - outer.left, y: h.rect.bottom - outer.top });
  }, []);
  const onSelectCall = useCallback(
    (id: string) => {
      const w = byId.get(id);
      if (w) select(w, { loop: false });
    },
    [byId, select],
  );

  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(22rem,2fr)]">
      <div className="flex min-w-0 flex-col gap-2">
        {playable && video ? (
          <VideoPlayer
            src={`/api/videos/${video.id}/file`}
            poster={video.hasThumbnail ? `/api/videos/${video.id}/thumbnail` : undefined}
            onReady={(p) => {
              player.current = p;
              const u = initial.current ?? readUrl();
              const t = u.t ?? (u.w ? byId.get(u.w)?.startS : undefined);
              if (t !== undefined) p.currentTime(t);
              p.on("pause", () => writeUrl({ t: p.currentTime() ?? 0 }));
            }}
            onTime={onTime}
          />
        ) : (
          <p className="rounded-lg border border-dashed border-line p-6 text-center text-sm text-muted">
            {video ? `The video is ${video.status.toLowerCase()}.` : "This sample has no video in the library."}
          </p>
        )}
        <div ref={box} className="relative rounded-lg border border-line bg-surface p-3">
          <div className="mb-2 flex flex-wrap items-center gap-3">
            <TimeReadout clock={clock} duration={duration} />
            {looping && (
              <span className="text-xs text-accent" data-testid="looping">
                looping turn {looping.turn + 1} · call {looping.call + 1} ({looping.startS.toFixed(1)}–
                {looping.endS.toFixed(1)} s) · Esc to stop
              </span>
            )}
            <span className="ml-auto text-xs text-muted">
              {ordered.length} window{ordered.length === 1 ? "" : "s"} · K = {e.overviewTimestamps.length}
            </span>
            <Button size="sm" variant="ghost" aria-label="Keyboard shortcuts" onClick={() => setHelp((h) => !h)}>
              ?
            </Button>
          </div>
          {duration > 0 ? (
            <TimelineLanes
              groups={groups}
              duration={duration}
              currentTime={clock}
              selected={selected ? { groupId: group.id, windowId: selected } : null}
              onSeek={onSeek}
              onSelectWindow={onSelectWindow}
              onHoverWindow={onHoverWindow}
            />
          ) : (
            <p className="text-sm text-muted">No video duration is known, so the timeline cannot be drawn.</p>
          )}
          {hover && (
            <WindowPopover
              window={hover.window}
              x={hover.x}
              y={hover.y}
              videoId={video?.id ?? null}
              filmstrip={filmstrip.data ?? null}
            />
          )}
        </div>
      </div>
      <section
        className="flex min-w-0 flex-col gap-3 xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:overflow-y-auto"
        aria-label="Transcript"
      >
        <h2 className="text-base font-semibold">
          Transcript{" "}
          <span className="text-sm font-normal text-muted">
            ({e.turnCount} turns{e.nextCursor !== null ? `, ${e.turns.length} loaded so far` : ""})
          </span>
        </h2>
        {e.turns.map((t) => (
          <EpisodeTurn
            key={t.index}
            turn={t}
            projectId={projectId}
            episodeId={e.id}
            videoId={e.sample.videoId}
            k={e.k}
            // Only the turns holding the old or new selection re-render (EpisodeTurn is memoized).
            selectedWindow={selected?.startsWith(`${t.index}.`) ? selected : null}
            onSelectCall={onSelectCall}
          />
        ))}
        {e.turnCount === 0 && (
          <p className="rounded-lg border border-dashed border-line p-6 text-center text-sm text-muted">
            No turns were stored{e.status === "ERROR" ? " (the episode failed before the model answered)" : ""}.
          </p>
        )}
      </section>
      {help && (
        <div className="fixed right-6 bottom-6 z-40 w-96 shadow-xl" role="dialog" aria-label="Keyboard shortcuts">
          <Card>
            <CardHeader
              title="Keyboard shortcuts"
              actions={
                <Button size="sm" variant="ghost" onClick={() => setHelp(false)}>
                  Close
                </Button>
              }
            />
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {[...EPISODE_HOTKEYS, ...extraHotkeys].map(([key, what]) => (
                <div key={key} className="contents">
                  <dt>
                    <kbd className="rounded border border-line bg-surface-2 px-1.5 font-mono text-xs">{key}</kbd>
                  </dt>
                  <dd className="text-muted">{what}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-2 text-xs text-muted">Click a crop window to play it in a loop.</p>
          </Card>
        </div>
      )}
    </div>
  );
}

let lastUrlWrite = 0;
/** While playing: keep `t` in the URL fresh without a history write per timeupdate. */
function throttledUrlTime(t: number) {
  const now = Date.now();
  if (now - lastUrlWrite < URL_TIME_EVERY_MS) return;
  lastUrlWrite = now;
  writeUrl({ t });
}
