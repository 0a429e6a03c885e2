"use client";
import { can, type Permission } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "next/navigation";
import { useTRPC } from "@/trpc/client";

/** The project of the current URL and what the signed-in user may do in it. */
export function useProject() {
  const { projectId } = useParams<{ projectId: string }>();
  const trpc = useTRPC();
  const project = useQuery(trpc.projects.byId.queryOptions({ projectId }));
  return {
    projectId,
    project,
    can: (permission: Permission) => can(project.data?.role, permission),
  };
}
