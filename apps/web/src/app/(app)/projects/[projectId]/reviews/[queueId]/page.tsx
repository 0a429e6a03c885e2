"use client";
import { useParams } from "next/navigation";
import { Suspense } from "react";
import { QueueView } from "@/components/reviews/queue-view";

export default function ReviewQueuePage() {
  const { queueId } = useParams<{ queueId: string }>();
  // useSearchParams (the item in the URL) needs a Suspense boundary in a client page.
  return (
    <Suspense>
      <QueueView queueId={queueId} />
    </Suspense>
  );
}
