"use client";
import type { RunEvent } from "@paravt/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { refreshQueries } from "@/lib/refresh-queries";
import { useTRPC } from "@/trpc/client";

/**
 * Subscribes to the project's run events (SSE) and refreshes the queries that show runs, videos
 * and evaluations, so every page that lists them is live. Returns the connection state for a badge.
 */
export function useLiveRuns(projectId: string, onEvent?: (e: RunEvent) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [last, setLast] = useState<RunEvent | null>(null);
  const sub = useSubscription(
    trpc.runs.events.subscriptionOptions(
      { projectId },
      {
        onData: (message) => {
          // On (re)subscription everything is refetched: events before it were not seen.
          if (message.type === "run") {
            setLast(message.event);
            onEvent?.(message.event);
          }
          void refreshQueries(queryClient, [
            trpc.runs.list.queryKey(),
            trpc.training.runs.queryKey(),
            trpc.runs.byId.queryKey(),
            trpc.runs.metrics.queryKey(),
            trpc.models.list.queryKey(),
            trpc.videos.list.queryKey(),
            trpc.projects.byId.queryKey(),
            trpc.datasets.list.queryKey(),
            trpc.datasets.byId.queryKey(),
            trpc.datasets.samples.queryKey(),
            // Evaluation progress, summaries, matrix cells and per-sample rows change with their
            // runs; a stored episode's transcript never does, so evals.episode is left alone.
            trpc.evals.groups.queryKey(),
            trpc.evals.group.queryKey(),
            trpc.evals.byId.queryKey(),
            trpc.evals.matrix.queryKey(),
            trpc.evals.samples.queryKey(),
          ]);
        },
      },
    ),
  );
  return { status: sub.status, last };
}
