"use client";
import type { ReviewEvent } from "@paravt/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useState } from "react";
import { refreshQueries } from "@/lib/refresh-queries";
import { useTRPC } from "@/trpc/client";

/**
 * Live review changes of the project (SSE): every reviews query is refreshed on each event, so two
 * reviewers on one queue see each other's status, tags and comments within a round trip.
 * Returns the connection state and the last event (the page names who changed what).
 */
export function useLiveReviews(projectId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [last, setLast] = useState<ReviewEvent | null>(null);
  const sub = useSubscription(
    trpc.reviews.events.subscriptionOptions(
      { projectId },
      {
        onData: (message) => {
          // On (re)subscription everything is refetched: changes before it were not seen.
          if (message.type === "review") setLast(message.event);
          void refreshQueries(queryClient, [trpc.reviews.pathKey()]);
        },
      },
    ),
  );
  return { status: sub.status, last };
}
