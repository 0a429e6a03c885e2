"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { ProjectNav } from "@/components/project-nav";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PageSkeleton } from "@/components/ui/skeleton";
import { useProject } from "@/lib/use-project";
import { errorMessage } from "@/trpc/client";

export default function ProjectLayout({ children }: { children: ReactNode }) {
  const { projectId, project, can } = useProject();
  if (project.error) {
    return (
      <div className="flex flex-col gap-4">
        <Alert>{errorMessage(project.error)}</Alert>
        <Link className="text-sm text-accent hover:underline" href="/projects">
          Back to projects
        </Link>
      </div>
    );
  }
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/projects" className="text-sm text-muted hover:text-fg">
          Projects /
        </Link>
        <span className="text-lg font-semibold" data-testid="project-name">
          {project.data?.name ?? "…"}
        </span>
        {project.data && (
          <Badge tone={project.data.role === "OWNER" ? "accent" : "neutral"}>
            <span data-testid="project-role">{project.data.role.toLowerCase()}</span>
          </Badge>
        )}
      </div>
      <ProjectNav projectId={projectId} showOwnerTabs={can("tokens.manage")} />
      {project.data ? children : <PageSkeleton />}
    </>
  );
}
