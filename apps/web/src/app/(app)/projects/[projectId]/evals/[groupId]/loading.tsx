import { SkeletonHeader, SkeletonPage, SkeletonTable } from "@/components/ui/skeleton";

/** An evaluation group's results matrix while it loads. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonTable rows={6} />
      <SkeletonTable rows={4} />
    </SkeletonPage>
  );
}
