import { SkeletonCards, SkeletonPage, SkeletonTable } from "@/components/ui/skeleton";

/** The project overview (and any project page without its own loading.tsx) while it loads. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonCards count={4} height="h-7" />
      <SkeletonTable rows={5} />
    </SkeletonPage>
  );
}
