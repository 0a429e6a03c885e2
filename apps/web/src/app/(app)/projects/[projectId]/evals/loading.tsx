import { SkeletonCards, SkeletonHeader, SkeletonPage, SkeletonTable } from "@/components/ui/skeleton";

/** Evaluations (launch form and groups) while they load. */
export default function Loading() {
  return (
    <SkeletonPage>
      <SkeletonHeader />
      <SkeletonCards count={2} height="h-32" columns="lg:grid-cols-2" />
      <SkeletonTable rows={5} />
    </SkeletonPage>
  );
}
