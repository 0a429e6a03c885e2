"use client";
import { CompareView } from "@/components/compare/compare-view";
import { useProject } from "@/lib/use-project";

export default function ComparePage() {
  const { projectId, can } = useProject();
  return <CompareView projectId={projectId} canLaunch={can("runs.launch")} />;
}
