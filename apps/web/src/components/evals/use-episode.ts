"use client";
import {
  mergeEpisodePages,
  type EpisodeTextField,
  type EvalEpisodeOutput,
  type EvalEpisodeTextOutput,
} from "@paravt/shared";
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useTRPC } from "@/trpc/client";

/**
 * A stored episode, all of it: `evals.episode` answers a bounded page at a time (issue 37 item 13),
 * so the pages are fetched one after the other and joined. The episode shows from the first page;
 * `loadingMore` says later turns are still coming. A stored episode never changes: cached for the
 * session.
 */
export function useEpisode(projectId: string, episodeId: string | null) {
  const trpc = useTRPC();
  const q = useInfiniteQuery({
    ...trpc.evals.episode.infiniteQueryOptions(
      { projectId, episodeId: episodeId ?? "" },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
    enabled: episodeId !== null,
    staleTime: Infinity,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage, error } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !error) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, error]);
  const data = useMemo(
    (): EvalEpisodeOutput | undefined => (q.data ? mergeEpisodePages(q.data.pages) : undefined),
    [q.data],
  );
  return { data, error: q.error, loadingMore: hasNextPage };
}

/** Names one stored text of an episode (`evals.episodeText`). */
export interface EpisodeTextRef {
  projectId: string;
  episodeId: string;
  field: EpisodeTextField;
  turn?: number;
  call?: number;
}

/** The whole text behind a preview, fetched page by page once `enabled` (the "show all" control). */
export function useFullText(ref: EpisodeTextRef, enabled: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useQuery({
    ...fullTextQuery(trpc, queryClient, ref),
    enabled,
  });
}

/**
 * The query behind `useFullText`, for a caller that needs several whole texts at once
 * (`queryClient.fetchQuery(fullTextQuery(…))`, e.g. the full transcript's "Copy as JSON").
 */
export function fullTextQuery(trpc: ReturnType<typeof useTRPC>, queryClient: QueryClient, ref: EpisodeTextRef) {
  return {
    queryKey: [...trpc.evals.episodeText.queryKey(), "whole", ref],
    staleTime: Infinity,
    queryFn: async () => {
      const parts: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        // Pages are not cached on their own: the joined text is.
        const page: EvalEpisodeTextOutput = await queryClient.fetchQuery({
          ...trpc.evals.episodeText.queryOptions({ ...ref, offset }),
          gcTime: 0,
        });
        parts.push(page.text);
        offset = page.nextOffset;
      }
      return parts.join("");
    },
  };
}
