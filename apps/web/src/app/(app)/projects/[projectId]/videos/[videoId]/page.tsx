"use client";
import type { FilmstripIndex } from "@paravt/video/sampling";
import { overviewTimestamps } from "@paravt/video/sampling";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { formatDuration } from "@/components/format";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { VideoPlayer, type Player } from "@/components/video-player";
import { formatSeconds, VideoTimeline } from "@/components/video-timeline";
import { PLAYER_HOTKEYS, playerKeys, useHotkeys } from "@/lib/use-hotkeys";
import { errorMessage, useTRPC } from "@/trpc/client";

const K_CHOICES = [4, 8, 16, 32, 64] as const;

/** The page's keys (its `useHotkeys` keymap), as the help lists them. */
const VIDEO_HOTKEYS: [string, string][] = [
  ...PLAYER_HOTKEYS,
  ["[ / ]", "previous / next overview frame"],
  ["?", "show / hide this help"],
];

export default function VideoPage() {
  const { projectId, videoId } = useParams<{ projectId: string; videoId: string }>();
  const params = useSearchParams();
  const router = useRouter();
  const trpc = useTRPC();
  const video = useQuery(trpc.videos.byId.queryOptions({ projectId, videoId }));
  useLiveRuns(projectId);
  const k = Number(params.get("k")) || 16;
  const startAt = Number(params.get("t")) || 0;
  const player = useRef<Player | null>(null);
  const [time, setTime] = useState(startAt);
  const [help, setHelp] = useState(false);
  const [copied, setCopied] = useState(false);

  const filmstrip = useQuery({
    queryKey: ["filmstrip", videoId],
    enabled: video.data?.hasFilmstrip === true,
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch(`/api/videos/${videoId}/filmstrip`);
      if (!res.ok) throw new Error(`filmstrip: ${res.status}`);
      return (await res.json()) as FilmstripIndex & { duration: number };
    },
  });

  const duration = video.data?.durationS ?? 0;
  const ticks = useMemo(() => (duration > 0 ? overviewTimestamps(duration, k) : []), [duration, k]);

  const setUrl = useCallback(
    (next: { k?: number; t?: number }) => {
      const q = new URLSearchParams(params.toString());
      if (next.k !== undefined) q.set("k", String(next.k));
      if (next.t !== undefined) q.set("t", next.t.toFixed(1));
      router.replace(`?${q.toString()}`, { scroll: false });
    },
    [params, router],
  );

  const seek = useCallback(
    (t: number) => {
      const clamped = Math.min(Math.max(0, t), duration);
      player.current?.currentTime(clamped);
      setTime(clamped);
    },
    [duration],
  );

  // The keys of VIDEO_HOTKEYS.
  useHotkeys({
    ...playerKeys(player, seek, () => time, video.data?.fps || 25),
    "[": () => seek([...ticks].reverse().find((t) => t < time - 1e-3) ?? 0),
    "]": () => seek(ticks.find((t) => t > time + 1e-3) ?? time),
    "?": () => setHelp((h) => !h),
  });

  if (video.error) return <Alert>{errorMessage(video.error)}</Alert>;
  const v = video.data;
  if (!v) return null;
  const playable = v.status === "READY" || v.status === "PROCESSING";

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <Link href={`/projects/${projectId}/videos`} className="text-sm text-muted hover:text-fg">
            Videos /
          </Link>
          <h1 className="text-lg font-semibold" data-testid="video-name">
            {v.name}
          </h1>
          <StatusBadge status={v.status} />
        </div>
        <div className="flex items-center gap-2">
          <Select
            aria-label="Overview frames (K)"
            value={String(k)}
            className="h-8 w-44"
            onChange={(e) => setUrl({ k: Number(e.target.value) })}
          >
            {K_CHOICES.map((c) => (
              <option key={c} value={c}>
                K = {c} overview frames
              </option>
            ))}
          </Select>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              const url = new URL(window.location.href);
              url.searchParams.set("t", time.toFixed(1));
              url.searchParams.set("k", String(k));
              void navigator.clipboard?.writeText(url.toString());
              setUrl({ t: time, k });
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }}
          >
            {copied ? "Link copied" : "Copy link at this time"}
          </Button>
          <Button size="sm" variant="ghost" aria-label="Keyboard shortcuts" onClick={() => setHelp((h) => !h)}>
            ?
          </Button>
        </div>
      </div>
      {v.error && <Alert>{v.error}</Alert>}
      {playable ? (
        <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_280px]">
          <div className="flex flex-col gap-2">
            <VideoPlayer
              src={`/api/videos/${v.id}/file`}
              poster={v.hasThumbnail ? `/api/videos/${v.id}/thumbnail` : undefined}
              onReady={(p) => {
                player.current = p;
                if (startAt > 0) p.currentTime(startAt);
              }}
              onTime={setTime}
            />
            {duration > 0 && (
              <VideoTimeline
                duration={duration}
                currentTime={time}
                ticks={ticks}
                filmstrip={filmstrip.data ?? null}
                sheetUrl={(sheet) => `/api/videos/${v.id}/filmstrip/${sheet}`}
                onSeek={seek}
              />
            )}
            <p className="font-mono text-xs text-muted" data-testid="current-time">
              {formatSeconds(time)} / {formatSeconds(duration)}
            </p>
          </div>
          <Card className="h-fit">
            <CardHeader title="Video" />
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-muted">Duration</dt>
              <dd className="tabular-nums">{formatDuration(v.durationS)}</dd>
              <dt className="text-muted">Size</dt>
              <dd className="tabular-nums">{v.width && v.height ? `${v.width}×${v.height}` : "—"}</dd>
              <dt className="text-muted">Frame rate</dt>
              <dd className="tabular-nums">{v.fps ? `${v.fps.toFixed(2)} fps` : "—"}</dd>
              <dt className="text-muted">Codec</dt>
              <dd>{v.codec ?? "—"}</dd>
              <dt className="text-muted">Source</dt>
              <dd>
                <Badge>{v.source.toLowerCase()}</Badge>
              </dd>
              <dt className="text-muted">Overview</dt>
              <dd className="tabular-nums">
                K = {k}, one frame every {duration > 0 ? formatSeconds(duration / k) : "—"}
              </dd>
            </dl>
          </Card>
        </div>
      ) : (
        v.status !== "FAILED" && (
          <Alert tone="info">This video is still being processed ({v.status.toLowerCase()}).</Alert>
        )
      )}
      {help && (
        <Card className="fixed right-6 bottom-6 z-20 w-80 shadow-xl">
          <CardHeader
            title="Keyboard shortcuts"
            actions={
              <Button size="sm" variant="ghost" onClick={() => setHelp(false)}>
                Close
              </Button>
            }
          />
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {VIDEO_HOTKEYS.map(([key, what]) => (
              <div key={key} className="contents">
                <dt>
                  <kbd className="rounded border border-line bg-surface-2 px-1.5 font-mono text-xs">{key}</kbd>
                </dt>
                <dd className="text-muted">{what}</dd>
              </div>
            ))}
          </dl>
        </Card>
      )}
    </div>
  );
}
