"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { StatusBadge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { useProject } from "@/lib/use-project";
import { useTRPC } from "@/trpc/client";

export default function ProjectOverviewPage() {
  const { projectId, project } = useProject();
  const trpc = useTRPC();
  const videos = useQuery(trpc.videos.list.queryOptions({ projectId }));
  const runs = useQuery(trpc.runs.list.queryOptions({ projectId, limit: 5 }));
  const live = useLiveRuns(projectId);
  const stats = [
    { label: "Videos", value: project.data?.videoCount, href: `/projects/${projectId}/videos` },
    {
      label: "Ready videos",
      value: videos.data?.filter((v) => v.status === "READY").length,
      href: `/projects/${projectId}/videos`,
    },
    { label: "Jobs", value: project.data?.runCount, href: `/projects/${projectId}/jobs` },
    { label: "Members", value: project.data?.memberCount, href: `/projects/${projectId}/members` },
  ];
  return (
    <div className="flex flex-col gap-6">
      {project.data?.description && <p className="text-sm text-muted">{project.data.description}</p>}
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {stats.map((s) => (
          <Link
            key={s.label}
            href={s.href}
            className="rounded-lg border border-line bg-surface p-4 hover:border-accent"
          >
            <p className="text-xs uppercase tracking-wide text-muted">{s.label}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{s.value ?? "…"}</p>
          </Link>
        ))}
      </div>
      <Card>
        <CardHeader title="Recent jobs" actions={<LiveBadge status={live.status} />} />
        <ul className="divide-y divide-line">
          {runs.data?.map((r) => (
            <li key={r.id}>
              <Link
                href={`/projects/${projectId}/runs/${r.id}`}
                className="flex items-center justify-between gap-3 py-2 text-sm hover:text-accent"
              >
                <span className="truncate" title={r.name}>
                  {r.name}
                </span>
                <StatusBadge status={r.status} />
              </Link>
            </li>
          ))}
          {runs.data?.length === 0 && <li className="py-2 text-sm text-muted">No jobs yet.</li>}
        </ul>
      </Card>
    </div>
  );
}
