import { SkeletonCards, SkeletonHeader, SkeletonPage } from "@/components/ui/skeleton";

/** A run page (training charts or an eval summary) while it loads. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonCards count={4} height="h-48" columns="lg:grid-cols-2" />
    </SkeletonPage>
  );
}
