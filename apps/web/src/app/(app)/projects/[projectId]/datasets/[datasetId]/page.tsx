"use client";
import { QUESTION_TYPES, visibilityRowSchema } from "@paravt/shared";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter, useSearchParams } from "next/navigation";
import { z } from "zod";
import { BenchmarkImportReportCard } from "@/components/datasets/benchmark-import-report";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { TrainSftForm } from "@/components/train-sft-form";
import { TrainRlForm } from "@/components/training/train-rl-form";
import { VisibilityTable } from "@/components/visibility-table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

const KS = [4, 8, 16, 32, 64];

export default function DatasetPage() {
  const { projectId, datasetId } = useParams<{ projectId: string; datasetId: string }>();
  const params = useSearchParams();
  const router = useRouter();
  const type = params.get("type") as (typeof QUESTION_TYPES)[number] | null;
  const trpc = useTRPC();
  const { can } = useProject();
  useLiveRuns(projectId);
  const dataset = useQuery(trpc.datasets.byId.queryOptions({ projectId, datasetId }));
  const samples = useInfiniteQuery(
    trpc.datasets.samples.infiniteQueryOptions(
      { projectId, datasetId, limit: 50, ...(type ? { questionType: type } : {}) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );

  if (dataset.error) return <Alert>{errorMessage(dataset.error)}</Alert>;
  const d = dataset.data;
  if (!d) return null;
  const visibility = z.array(visibilityRowSchema).safeParse(d.source.visibility);
  const rows = samples.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link href={`/projects/${projectId}/datasets`} className="text-sm text-muted hover:text-fg">
          Datasets /
        </Link>
        <h1 className="text-lg font-semibold" data-testid="dataset-name">
          {d.name}
        </h1>
        <Badge>{d.sampleCount} samples</Badge>
        {Object.entries(d.countsByType).map(([t, n]) => (
          <Badge key={t}>
            {t} {n}
          </Badge>
        ))}
      </div>
      <p className="text-sm text-muted">{d.description}</p>
      {visibility.success && visibility.data.length > 0 && (
        <Card>
          <CardHeader title="Answerable from the overview" description="Why the agent needs crops at small K." />
          <VisibilityTable rows={visibility.data} />
        </Card>
      )}
      {d.source.kind === "benchmark" && (
        <BenchmarkImportReportCard
          projectId={projectId}
          datasetId={d.id}
          source={d.source}
          canReimport={can("runs.launch")}
        />
      )}
      {can("runs.launch") && d.source.kind === "needle-suite" && d.sampleCount > 0 && (
        <TrainSftForm projectId={projectId} datasetId={d.id} datasetName={d.name} />
      )}
      {can("runs.launch") && d.source.kind === "needle-suite" && d.sampleCount > 0 && (
        <TrainRlForm projectId={projectId} datasetId={d.id} datasetName={d.name} />
      )}
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold">Samples</h2>
        <Select
          aria-label="Question type"
          className="w-40"
          value={type ?? ""}
          onChange={(e) => router.replace(e.target.value ? `?type=${e.target.value}` : "?", { scroll: false })}
        >
          <option value="">All types</option>
          {QUESTION_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </div>
      <Table label="Samples">
        <thead>
          <tr>
            <Th>Question</Th>
            <Th>Type</Th>
            <Th>Answer</Th>
            <Th>Visible at K</Th>
            <Th>Video</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => {
            const visibleAtK = (s.metadata.visibleAtK ?? {}) as Record<string, boolean>;
            const answerText = typeof s.metadata.answerText === "string" ? s.metadata.answerText : null;
            return (
              <tr key={s.id} className="align-top">
                <Td className="max-w-xl">
                  <p className="whitespace-pre-line">{s.question.split("\n")[0]}</p>
                  {s.options && (
                    <ol className="mt-1 list-[upper-alpha] pl-5 text-xs text-muted">
                      {s.options.map((o) => (
                        <li key={o}>{o}</li>
                      ))}
                    </ol>
                  )}
                </Td>
                <Td>
                  <Badge>{s.questionType}</Badge>
                </Td>
                <Td className="font-mono text-xs">
                  {s.answer}
                  {answerText && answerText !== s.answer && <div className="font-sans text-muted">{answerText}</div>}
                </Td>
                <Td>
                  <div className="flex gap-1" aria-label="Evidence visible in the overview at K">
                    {KS.map((k) => (
                      <span
                        key={k}
                        title={visibleAtK[String(k)] ? `visible with ${k} overview frames` : `needs a crop at K=${k}`}
                        className={
                          visibleAtK[String(k)]
                            ? "rounded bg-success/15 px-1 text-xs text-success"
                            : "rounded bg-surface-2 px-1 text-xs text-muted line-through"
                        }
                      >
                        {k}
                      </span>
                    ))}
                  </div>
                </Td>
                <Td>
                  {s.videoId ? (
                    <Link className="text-accent hover:underline" href={`/projects/${projectId}/videos/${s.videoId}`}>
                      {s.videoName?.split(" / ").pop() ?? "video"}
                    </Link>
                  ) : (
                    "—"
                  )}
                </Td>
              </tr>
            );
          })}
          {samples.isSuccess && rows.length === 0 && <EmptyRow colSpan={5}>No samples yet.</EmptyRow>}
        </tbody>
      </Table>
      {samples.hasNextPage && (
        <div>
          <Button
            variant="secondary"
            onClick={() => void samples.fetchNextPage()}
            disabled={samples.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
