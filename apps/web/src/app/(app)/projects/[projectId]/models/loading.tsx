import { SkeletonHeader, SkeletonPage, SkeletonTable } from "@/components/ui/skeleton";

/** The model registry while it loads. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonTable rows={6} />
    </SkeletonPage>
  );
}
