"use client";
import { Suspense } from "react";
import { ReviewsOverview } from "@/components/reviews/reviews-overview";

export default function ReviewsPage() {
  // The filters live in the URL (useSearchParams needs a Suspense boundary in a client page).
  return (
    <Suspense>
      <ReviewsOverview />
    </Suspense>
  );
}
