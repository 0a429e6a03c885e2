"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatDuration, timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function VideosPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const videos = useQuery(trpc.videos.list.queryOptions({ projectId }));
  const live = useLiveRuns(projectId);
  const [durationS, setDurationS] = useState(20);
  const createDemo = useMutation(
    trpc.videos.createDemo.mutationOptions({ onSuccess: () => void videos.refetch() }),
  );

  function onGenerate(e: FormEvent) {
    e.preventDefault();
    createDemo.mutate({ projectId, durationS });
  }

  return (
    <div className="flex flex-col gap-6">
      {can("runs.launch") && (
        <Card>
          <CardHeader
            title="Generate a demo video"
            description="Renders a synthetic H.264 video on a worker (a real ffmpeg job with live progress), then probes it."
          />
          <form onSubmit={onGenerate} className="flex flex-wrap items-end gap-3">
            <div className="w-40">
              <Field label="Duration (seconds)">
                <Input
                  type="number"
                  min={2}
                  max={1800}
                  value={durationS}
                  onChange={(e) => setDurationS(Number(e.target.value))}
                />
              </Field>
            </div>
            <Button type="submit" disabled={createDemo.isPending}>
              Generate demo video
            </Button>
          </form>
          {createDemo.error && (
            <div className="mt-3">
              <Alert>{errorMessage(createDemo.error)}</Alert>
            </div>
          )}
        </Card>
      )}
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold">Videos</h2>
        <LiveBadge status={live.status} />
      </div>
      <Table label="Videos">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Source</Th>
            <Th>Status</Th>
            <Th>Duration</Th>
            <Th>Size</Th>
            <Th>Added</Th>
          </tr>
        </thead>
        <tbody>
          {videos.data?.map((v) => (
            <tr key={v.id}>
              <Td className="font-medium">{v.name}</Td>
              <Td>
                <Badge>{v.source.toLowerCase()}</Badge>
              </Td>
              <Td>
                <div className="flex flex-col gap-1">
                  <StatusBadge status={v.status} />
                  {v.error && <span className="max-w-xs text-xs text-danger">{v.error}</span>}
                </div>
              </Td>
              <Td className="tabular-nums">{formatDuration(v.durationS)}</Td>
              <Td className="tabular-nums text-muted">
                {v.width && v.height ? `${v.width}×${v.height}${v.fps ? ` @ ${Math.round(v.fps)} fps` : ""}` : "—"}
              </Td>
              <Td className="text-muted">{timeAgo(v.createdAt)}</Td>
            </tr>
          ))}
          {videos.data?.length === 0 && <EmptyRow colSpan={6}>No videos yet.</EmptyRow>}
        </tbody>
      </Table>
    </div>
  );
}
