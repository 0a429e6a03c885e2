import { SkeletonHeader, SkeletonPage, SkeletonTable } from "@/components/ui/skeleton";

/** The training runs list while it loads. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonTable rows={8} />
    </SkeletonPage>
  );
}
