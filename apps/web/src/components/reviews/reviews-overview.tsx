"use client";
import { REVIEW_STATUSES, reviewStatusSchema, type ReviewOverviewInput } from "@paravt/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { LiveBadge } from "../live-badge";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardHeader, PageHeader } from "../ui/card";
import { Select } from "../ui/input";
import { EmptyRow, Table, Td, Th } from "../ui/table";
import { cn } from "../ui/cn";
import { FailureBreakdownChart } from "./failure-breakdown";
import { ReviewProgressBar, STATUS_DOT } from "./review-progress";
import { ScoreConfigEditor } from "./score-config-editor";
import { TaxonomyEditor } from "./taxonomy-editor";
import { useLiveReviews } from "./use-live-reviews";

type Filters = Omit<ReviewOverviewInput, "projectId" | "limit">;

/** Overview filters live in the URL (?queue=&status=&tag=&assignee=), so a view can be shared. */
function filtersOf(params: URLSearchParams): Filters {
  const status = reviewStatusSchema.safeParse(params.get("status"));
  return {
    ...(params.get("queue") ? { queueId: params.get("queue")! } : {}),
    ...(params.get("tag") ? { tagId: params.get("tag")! } : {}),
    ...(status.success ? { status: status.data } : {}),
    ...(params.get("assignee") ? { assignee: params.get("assignee")! } : {}),
  };
}

export function ReviewsOverview() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const live = useLiveReviews(projectId);
  const filters = filtersOf(new URLSearchParams(params.toString()));
  const overview = useQuery(trpc.reviews.overview.queryOptions({ projectId, limit: 200, ...filters }));
  const tags = useQuery(trpc.reviews.tags.queryOptions({ projectId }));
  const scoreConfigs = useQuery(trpc.reviews.scoreConfigs.queryOptions({ projectId }));
  const members = useQuery({ ...trpc.members.list.queryOptions({ projectId }), staleTime: 60_000 });
  const runA = params.get("runA");
  const runB = params.get("runB");
  const breakdown = useQuery({
    ...trpc.reviews.breakdown.queryOptions({ projectId, runIds: [runA ?? "", ...(runB ? [runB] : [])] }),
    enabled: Boolean(runA),
  });
  const deleteQueue = useMutation(
    trpc.reviews.deleteQueue.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() }),
    }),
  );

  const setParam = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    router.replace(`?${next.toString()}`, { scroll: false });
  };
  const tagName = new Map((tags.data ?? []).map((t) => [t.id, t.name]));
  const queues = overview.data?.queues ?? [];
  // Runs that have queues: the breakdown's pickers (tags exist only on reviewed episodes).
  const runs = [...new Map(queues.map((q) => [q.run.id, q.run])).values()];
  const mine = filters.assignee === "me";

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Reviews"
        description="Failure cases reviewed as a team: queues built from runs, a shared failure taxonomy, comments pinned to video times."
        actions={<LiveBadge status={live.status} />}
      />
      {overview.error && <Alert>{errorMessage(overview.error)}</Alert>}
      {deleteQueue.error && <Alert>{errorMessage(deleteQueue.error)}</Alert>}

      <Card>
        <CardHeader
          title="Queues"
          description="Build one from an evaluation or training run's page (“Review queue from …”)."
        />
        <Table label="Review queues">
          <thead>
            <tr>
              <Th>Queue</Th>
              <Th>Run</Th>
              <Th>Filter</Th>
              <Th>Progress</Th>
              <Th>Built</Th>
              <Th />
            </tr>
          </thead>
          <tbody>
            {queues.length === 0 && <EmptyRow colSpan={6}>No review queues yet.</EmptyRow>}
            {queues.map((q) => (
              <tr key={q.id}>
                <Td>
                  <Link
                    href={`/projects/${projectId}/reviews/${q.id}?item=1`}
                    className="font-medium hover:text-accent"
                  >
                    {q.name}
                  </Link>
                </Td>
                <Td>
                  <Link href={`/projects/${projectId}/runs/${q.run.id}`} className="text-muted hover:text-fg">
                    {q.run.name}
                  </Link>
                </Td>
                <Td className="text-muted">{q.filterLabel}</Td>
                <Td>
                  <ReviewProgressBar progress={q.progress} label={`Progress of ${q.name}`} />
                </Td>
                <Td className="text-xs text-muted">
                  {q.createdBy?.name ?? "—"} · {timeAgo(q.createdAt)}
                </Td>
                <Td className="text-right">
                  {can("reviews.queue.delete") && (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        if (window.confirm(`Delete the queue "${q.name}"? Its reviews, tags and comments stay.`))
                          deleteQueue.mutate({ projectId, queueId: q.id });
                      }}
                    >
                      Delete
                    </Button>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader
            title={mine ? "Assigned to me" : "Queue items"}
            actions={
              <Button
                size="sm"
                variant={mine ? "primary" : "secondary"}
                onClick={() => setParam({ assignee: mine ? null : "me" })}
              >
                Assigned to me
              </Button>
            }
          />
          <div className="mb-3 flex flex-wrap gap-2">
            <Select
              aria-label="Queue filter"
              value={filters.queueId ?? ""}
              onChange={(e) => setParam({ queue: e.target.value })}
              className="w-56"
            >
              <option value="">All queues</option>
              {queues.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
            </Select>
            <Select
              aria-label="Status filter"
              value={filters.status ?? ""}
              onChange={(e) => setParam({ status: e.target.value })}
              className="w-36"
            >
              <option value="">Any status</option>
              {REVIEW_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.toLowerCase()}
                </option>
              ))}
            </Select>
            <Select
              aria-label="Tag filter"
              value={filters.tagId ?? ""}
              onChange={(e) => setParam({ tag: e.target.value })}
              className="w-56"
            >
              <option value="">Any tag</option>
              {(tags.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
            <Select
              aria-label="Assignee filter"
              value={filters.assignee ?? ""}
              onChange={(e) => setParam({ assignee: e.target.value })}
              className="w-44"
            >
              <option value="">Anyone</option>
              <option value="me">Me</option>
              {(members.data ?? []).map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name}
                </option>
              ))}
            </Select>
          </div>
          <Table label="Review items">
            <thead>
              <tr>
                <Th>Sample</Th>
                <Th>Status</Th>
                <Th>Assignee</Th>
                <Th>Tags</Th>
                <Th className="text-right">Comments</Th>
              </tr>
            </thead>
            <tbody>
              {overview.data?.items.length === 0 && <EmptyRow colSpan={5}>Nothing matches these filters.</EmptyRow>}
              {overview.data?.items.map((it) => (
                <tr key={it.episodeId}>
                  <Td>
                    <Link
                      href={`/projects/${projectId}/episodes/${it.episodeId}`}
                      className="font-mono hover:text-accent"
                    >
                      {it.sampleKey}
                    </Link>
                    <span className="ml-2 text-xs text-muted">{it.question.slice(0, 60)}</span>
                  </Td>
                  <Td>
                    <span className="inline-flex items-center gap-1.5 text-xs">
                      <span className={cn("size-2 rounded-full", STATUS_DOT[it.status])} />
                      {it.status.toLowerCase()}
                    </span>
                  </Td>
                  <Td className="text-xs">{it.assignee?.name ?? "—"}</Td>
                  <Td className="text-xs text-muted">{it.tagIds.map((id) => tagName.get(id) ?? "?").join(", ")}</Td>
                  <Td className="text-right tabular-nums">{it.comments}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>

        <Card>
          <CardHeader title="Progress per assignee" />
          <ul className="flex flex-col gap-2 text-sm" aria-label="Progress per assignee">
            {overview.data?.assignees.length === 0 && <li className="text-muted">No reviews yet.</li>}
            {overview.data?.assignees.map((a) => (
              <li key={a.assignee?.id ?? "none"} className="flex flex-col gap-1">
                <span>{a.assignee?.name ?? "Unassigned"}</span>
                <ReviewProgressBar progress={a.progress} label={`Progress of ${a.assignee?.name ?? "unassigned"}`} />
              </li>
            ))}
          </ul>
        </Card>
      </div>

      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader
            title="Failure breakdown"
            description="Tag counts over each run's reviewed episodes; pick a second run to compare."
          />
          <div className="mb-3 flex flex-wrap gap-2">
            <Select
              aria-label="Breakdown run"
              value={runA ?? ""}
              onChange={(e) => setParam({ runA: e.target.value })}
              className="w-60"
            >
              <option value="">Pick a run…</option>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </Select>
            <Select
              aria-label="Compare with run"
              value={runB ?? ""}
              onChange={(e) => setParam({ runB: e.target.value })}
              className="w-60"
            >
              <option value="">compare with… (optional)</option>
              {runs
                .filter((r) => r.id !== runA)
                .map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
            </Select>
          </div>
          {breakdown.error && <Alert>{errorMessage(breakdown.error)}</Alert>}
          {breakdown.data ? (
            <FailureBreakdownChart data={breakdown.data} />
          ) : (
            <p className="text-sm text-muted">Pick a run with a review queue.</p>
          )}
        </Card>
        <Card>
          <CardHeader title="Failure taxonomy" description="Keys 1–9 on the review page toggle the first nine tags." />
          <TaxonomyEditor
            projectId={projectId}
            tags={tags.data ?? []}
            canEdit={can("taxonomy.edit")}
            canDelete={can("taxonomy.delete")}
          />
        </Card>
      </div>

      <div id="scores" className="scroll-mt-20">
        <Card>
          <CardHeader
            title="Scores"
            description={`Numbers reviewers give each item (key s on the review page); mean and count over ${
              filters.queueId ? "the chosen queue's" : "the project's"
            } scored reviews.`}
          />
          {scoreConfigs.error && <Alert>{errorMessage(scoreConfigs.error)}</Alert>}
          <ScoreConfigEditor
            projectId={projectId}
            configs={scoreConfigs.data ?? []}
            summary={overview.data?.scores ?? []}
            canEdit={can("taxonomy.edit")}
            canDelete={can("taxonomy.delete")}
          />
        </Card>
      </div>
    </div>
  );
}
