"use client";
import { Suspense } from "react";
import { Inbox } from "@/components/reviews/inbox";

export default function InboxPage() {
  // `?unread=1` lives in the URL (useSearchParams needs a Suspense boundary in a client page).
  return (
    <Suspense>
      <Inbox />
    </Suspense>
  );
}
