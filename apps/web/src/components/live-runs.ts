"use client";
import type { RunEvent } from "@paravt/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { applyRunEvent, refreshAllLive } from "@/lib/apply-run-event";
import { useTRPC } from "@/trpc/client";

/**
 * Subscribes to the project's run events (SSE) and keeps every page that shows runs, videos,
 * datasets and evaluations live, at the cost of what changed (issue 42 item 1): each event patches
 * the run's cached rows, refetches only the query families it touches (`liveRunPlan`) and makes
 * the run's charts append their new points. Returns the connection state for a badge.
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
          if (message.type === "subscribed") {
            void refreshAllLive(queryClient, trpc);
            return;
          }
          setLast(message.event);
          onEvent?.(message.event);
          void applyRunEvent(queryClient, trpc, message.event);
        },
      },
    ),
  );
  return { status: sub.status, last };
}
