"use client";
import type { RunStatus } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { LiveWorkers } from "@/components/runs/live-workers";
import { RunStatusSelect } from "@/components/runs/run-status-select";
import { Alert } from "@/components/ui/alert";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function JobsPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const [status, setStatus] = useState<RunStatus | "">("");
  const runs = useQuery(trpc.runs.list.queryOptions({ projectId, limit: 100, ...(status ? { status } : {}) }));
  const live = useLiveRuns(projectId);
  const cancel = useMutation(trpc.runs.cancel.mutationOptions({ onSuccess: () => void runs.refetch() }));

  return (
    <>
      <PageHeader
        title="Jobs"
        description="Every job the workers run, with live status and progress."
        actions={
          <>
            <LiveBadge status={live.status} />
            <RunStatusSelect value={status} onChange={setStatus} />
          </>
        }
      />
      <LiveWorkers projectId={projectId} />
      {cancel.error && <Alert>{errorMessage(cancel.error)}</Alert>}
      <Table label="Jobs">
        <thead>
          <tr>
            <Th>Job</Th>
            <Th>Status</Th>
            <Th>Progress</Th>
            <Th>Message</Th>
            <Th>Started by</Th>
            <Th>Created</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {runs.data?.map((r) => (
            <tr key={r.id} data-testid={`run-${r.id}`}>
              <Td>
                <Link
                  href={`/projects/${projectId}/runs/${r.id}`}
                  className="font-medium hover:text-accent hover:underline"
                >
                  {r.name}
                </Link>
                <div className="font-mono text-xs text-muted">{r.jobName}</div>
              </Td>
              <Td>
                <StatusBadge status={r.status} />
                {r.attempts > 1 && <span className="ml-1 text-xs text-muted">attempt {r.attempts}</span>}
              </Td>
              <Td>
                <Progress value={r.progress} label={`Progress of ${r.name}`} />
              </Td>
              <Td className="max-w-sm text-xs">
                {r.error ? (
                  <span className="text-danger">{r.error}</span>
                ) : (
                  <span className="text-muted">{r.message ?? ""}</span>
                )}
              </Td>
              <Td className="text-muted">{r.createdBy ?? "system"}</Td>
              <Td className="text-muted">{timeAgo(r.createdAt)}</Td>
              <Td className="text-right">
                {can("runs.cancel") && (r.status === "QUEUED" || r.status === "RUNNING") && (
                  <Button size="sm" variant="secondary" onClick={() => cancel.mutate({ projectId, runId: r.id })}>
                    Cancel
                  </Button>
                )}
              </Td>
            </tr>
          ))}
          {runs.data?.length === 0 && <EmptyRow colSpan={7}>No jobs yet.</EmptyRow>}
        </tbody>
      </Table>
    </>
  );
}
