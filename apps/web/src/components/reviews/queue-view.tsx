"use client";
import type { ReviewItemRow } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";
import { EpisodeViewer, type EpisodeViewerControl } from "../evals/episode-viewer";
import { OutcomeBadge } from "../evals/episode-overview";
import { useEpisode } from "../evals/use-episode";
import { LiveBadge } from "../live-badge";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { REVIEW_HOTKEYS, reviewKeyAction } from "./review-keys";
import { ReviewPanel, type ReviewPanelControl } from "./review-panel";
import { ReviewProgressBar, STATUS_DOT } from "./review-progress";
import { useLiveReviews } from "./use-live-reviews";

const CHANGE_VERB: Record<string, string> = {
  review: "changed the status or assignee of",
  tag: "changed the tags of",
  comment: "commented on",
  score: "scored",
  taxonomy: "edited the taxonomy used by",
  queue: "changed the queue of",
};

/** `?item=N` is 1-based; anything else is the first item. */
function itemIndex(raw: string | null, count: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= count ? n - 1 : 0;
}

function ItemList({ items, current, href }: { items: ReviewItemRow[]; current: number; href: (i: number) => string }) {
  return (
    <ol className="flex max-h-[60vh] flex-col overflow-y-auto text-sm" aria-label="Queue items">
      {items.map((it, i) => (
        <li key={it.episodeId}>
          <Link
            href={href(i)}
            replace
            scroll={false}
            aria-current={i === current ? "true" : undefined}
            className={cn(
              "flex items-center gap-2 rounded px-2 py-1",
              i === current ? "bg-accent/10 text-fg" : "text-muted hover:bg-surface-2 hover:text-fg",
            )}
          >
            <span
              className={cn("size-2 shrink-0 rounded-full", STATUS_DOT[it.status])}
              title={it.status.toLowerCase()}
            />
            <span className="w-7 text-right font-mono text-xs tabular-nums">{i + 1}</span>
            <span className="truncate font-mono">{it.sampleKey}</span>
            {it.tagIds.length > 0 && (
              <span className="ml-auto text-xs">
                {it.tagIds.length} tag{it.tagIds.length === 1 ? "" : "s"}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ol>
  );
}

/**
 * A review queue, one episode at a time: the episode viewer and the review panel side by side,
 * the queue's items on the left; `?item=N` names the item, so a link opens the same episode.
 */
export function QueueView({ queueId }: { queueId: string }) {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const live = useLiveReviews(projectId);
  const queue = useQuery(trpc.reviews.queue.queryOptions({ projectId, queueId }));
  const tags = useQuery(trpc.reviews.tags.queryOptions({ projectId }));
  const scoreConfigs = useQuery(trpc.reviews.scoreConfigs.queryOptions({ projectId }));
  const items = queue.data?.items ?? [];
  const index = itemIndex(params.get("item"), items.length);
  const item = items[index];
  const episode = useEpisode(projectId, item?.episodeId ?? null);
  const videoId = episode.data?.sample.videoId ?? null;
  const video = useQuery({
    ...trpc.videos.byId.queryOptions({ projectId, videoId: videoId ?? "" }),
    enabled: videoId !== null,
    staleTime: 60_000,
  });
  const viewer = useRef<EpisodeViewerControl>(null);
  const panel = useRef<ReviewPanelControl>(null);
  const canWrite = can("reviews.write");
  const me = useQuery({ ...trpc.ingest.whoami.queryOptions(), staleTime: Infinity });
  const members = useQuery({ ...trpc.members.list.queryOptions({ projectId }), staleTime: 60_000 });

  // Only `item` in the URL: the viewer's `t` / `w` belong to the episode we leave.
  const href = (i: number) => `/projects/${projectId}/reviews/${queueId}?item=${i + 1}`;
  const go = (i: number) => {
    if (i >= 0 && i < items.length) router.replace(href(i), { scroll: false });
  };
  const goRef = useRef(go);
  goRef.current = go;
  const indexRef = useRef(index);
  indexRef.current = index;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const action = reviewKeyAction(e.key);
      if (!action) return;
      e.preventDefault();
      if (action.kind === "next") goRef.current(indexRef.current + 1);
      else if (action.kind === "prev") goRef.current(indexRef.current - 1);
      else if (action.kind === "status") panel.current?.setStatus(action.status);
      else if (action.kind === "tag") panel.current?.toggleTag(action.index);
      else if (action.kind === "score") panel.current?.focusScore();
      else panel.current?.focusComment();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (queue.error) return <Alert>{errorMessage(queue.error)}</Alert>;
  const q = queue.data?.queue;
  if (!q) return null;
  const exportHref = (format: "csv" | "json") =>
    `/api/projects/${projectId}/reviews/queues/${queueId}/export?format=${format}`;
  // Another reviewer's change to this item (one's own changes show in the panel already).
  const other =
    live.last && live.last.episodeId === item?.episodeId && me.data && live.last.byUserId !== me.data.userId
      ? live.last
      : null;
  const otherName = other ? (members.data?.find((m) => m.userId === other.byUserId)?.name ?? "Someone") : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <Link href={`/projects/${projectId}/reviews`} className="text-sm text-muted hover:text-fg">
            Reviews /
          </Link>
          <h1 className="text-lg font-semibold" data-testid="queue-name">
            {q.name}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
            <Badge>{q.filterLabel}</Badge>
            <Link href={`/projects/${projectId}/runs/${q.run.id}`} className="hover:text-fg">
              run {q.run.name}
            </Link>
            {q.createdBy && <span>built by {q.createdBy.name}</span>}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <LiveBadge status={live.status} />
          <ReviewProgressBar progress={q.progress} label="Queue progress" />
          <a className="text-sm text-accent hover:underline" href={exportHref("csv")} download>
            Export CSV
          </a>
          <a className="text-sm text-accent hover:underline" href={exportHref("json")} download>
            JSON
          </a>
        </div>
      </div>

      <div className="grid gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <aside className="flex flex-col gap-2">
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              variant="secondary"
              onClick={() => go(index - 1)}
              disabled={index === 0}
              aria-label="Previous item"
            >
              ← p
            </Button>
            <span className="text-sm tabular-nums" data-testid="queue-position">
              {index + 1} / {items.length}
            </span>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => go(index + 1)}
              disabled={index >= items.length - 1}
              aria-label="Next item"
            >
              n →
            </Button>
          </div>
          {item && (
            <ReviewPanel
              key={item.episodeId}
              ref={panel}
              projectId={projectId}
              episodeId={item.episodeId}
              tags={tags.data ?? []}
              scoreConfigs={scoreConfigs.data ?? []}
              canWrite={canWrite}
              meId={me.data?.userId}
              canModerate={can("reviews.comment.moderate")}
              currentTime={() => viewer.current?.currentTime() ?? 0}
              seek={(t) => viewer.current?.seek(t)}
            />
          )}
          <ItemList items={items} current={index} href={href} />
        </aside>

        <div className="flex min-w-0 flex-col gap-4">
          {item && (
            <div className="flex flex-wrap items-center gap-3">
              <h2 className="text-base font-semibold" data-testid="episode-title">
                Sample <span className="font-mono">{item.sampleKey}</span>
              </h2>
              {episode.data && <OutcomeBadge e={episode.data} />}
              <span className="text-sm text-muted">
                answer <span className="font-mono text-fg">{item.answer}</span> · predicted{" "}
                <span className="font-mono text-fg">{item.prediction ?? "—"}</span> · K = {item.k} ·{" "}
                {item.toolCallCount} tool calls
              </span>
              <Link
                href={`/projects/${projectId}/episodes/${item.episodeId}`}
                className="ml-auto text-xs text-accent hover:underline"
              >
                open episode
              </Link>
            </div>
          )}
          {other && (
            <p className="text-xs text-accent" data-testid="live-change" role="status">
              {otherName} {CHANGE_VERB[other.kind]} this item just now
            </p>
          )}
          {episode.error && <Alert>{errorMessage(episode.error)}</Alert>}
          {episode.data && (!videoId || !video.isPending || video.error) && (
            <EpisodeViewer
              key={episode.data.id}
              projectId={projectId}
              episode={episode.data}
              video={video.data ?? null}
              controlRef={viewer}
              extraHotkeys={REVIEW_HOTKEYS}
            />
          )}
        </div>
      </div>
    </div>
  );
}
