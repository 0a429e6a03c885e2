"use client";
import { ApiReference } from "@/components/api-docs/api-reference";
import { useProject } from "@/lib/use-project";

/** The REST API reference with "Try it", for every member (tokens are made on the API tokens page). */
export default function ApiDocsPage() {
  const { projectId } = useProject();
  return <ApiReference projectId={projectId} />;
}
