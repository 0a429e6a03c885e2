"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { AddVideo } from "@/components/add-video";
import { formatDuration, timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { useTRPC } from "@/trpc/client";

export default function VideosPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  // The search lives in the URL so a filtered library can be shared as a link.
  const query = params.get("q") ?? "";
  const videos = useQuery(trpc.videos.list.queryOptions({ projectId, ...(query ? { query } : {}) }));
  const live = useLiveRuns(projectId);

  return (
    <div className="flex flex-col gap-6">
      {can("videos.upload") && <AddVideo projectId={projectId} onAdded={() => void videos.refetch()} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">Videos</h2>
        <div className="flex items-center gap-3">
          <Input
            type="search"
            aria-label="Search videos"
            placeholder="Search by name"
            defaultValue={query}
            className="w-64"
            onChange={(e) => {
              const q = e.target.value.trim();
              router.replace(q ? `?q=${encodeURIComponent(q)}` : "?", { scroll: false });
            }}
          />
          <LiveBadge status={live.status} />
        </div>
      </div>
      <Table label="Videos">
        <thead>
          <tr>
            <Th className="w-28" />
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
            <tr key={v.id} className="hover:bg-surface-2">
              <Td className="py-1.5">
                <div className="h-[54px] w-24 overflow-hidden rounded bg-surface-2">
                  {v.hasThumbnail && (
                    <img
                      src={`/api/videos/${v.id}/thumbnail`}
                      alt={`Thumbnail of ${v.name}`}
                      className="h-full w-full object-cover"
                      loading="lazy"
                    />
                  )}
                </div>
              </Td>
              <Td className="font-medium">
                <Link href={`/projects/${projectId}/videos/${v.id}`} className="hover:text-accent hover:underline">
                  {v.name}
                </Link>
              </Td>
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
          {videos.data?.length === 0 && (
            <EmptyRow colSpan={7}>{query ? `No video matches “${query}”.` : "No videos yet."}</EmptyRow>
          )}
        </tbody>
      </Table>
    </div>
  );
}
