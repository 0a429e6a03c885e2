"use client";
import { QUESTION_TYPES, visibilityRowSchema } from "@paravt/shared";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter, useSearchParams } from "next/navigation";
import { z } from "zod";
import { BenchmarkImportReportCard } from "@/components/datasets/benchmark-import-report";
import { DatasetSampleGrid } from "@/components/datasets/dataset-sample-grid";
import { VisibleAtK } from "@/components/datasets/visible-at-k";
import { searchWithView, viewFromParams } from "@/components/evals/sample-filters";
import { ViewToggle } from "@/components/evals/view-toggle";
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

export default function DatasetPage() {
  const { projectId, datasetId } = useParams<{ projectId: string; datasetId: string }>();
  const params = useSearchParams();
  const router = useRouter();
  const rawType = params.get("type");
  const type = QUESTION_TYPES.find((t) => t === rawType) ?? null;
  const view = viewFromParams(new URLSearchParams(params.toString()));
  const trpc = useTRPC();
  const { can } = useProject();
  useLiveRuns(projectId);
  const dataset = useQuery(trpc.datasets.byId.queryOptions({ projectId, datasetId }));
  const samples = useInfiniteQuery(
    trpc.datasets.samples.infiniteQueryOptions(
      { projectId, datasetId, limit: 50, ...(type ? { questionType: type } : {}) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined, enabled: view === "table" },
    ),
  );
  // The type filter and the view share the URL: changing one keeps the other.
  const withType = (value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set("type", value);
    else next.delete("type");
    const s = next.toString();
    return s ? `?${s}` : "?";
  };

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
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">Samples</h2>
        <div className="flex items-center gap-3">
          <ViewToggle
            view={view}
            onChange={(v) =>
              router.replace(searchWithView(new URLSearchParams(params.toString()), v), { scroll: false })
            }
          />
          <Select
            aria-label="Question type"
            className="w-40"
            value={type ?? ""}
            onChange={(e) => router.replace(withType(e.target.value), { scroll: false })}
          >
            <option value="">All types</option>
            {QUESTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {view === "grid" && (
        <DatasetSampleGrid
          projectId={projectId}
          datasetId={d.id}
          questionType={type}
          scope={`${d.id}?view=grid&type=${type ?? ""}`}
        />
      )}
      {view === "table" && (
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
                    <VisibleAtK visible={visibleAtK} />
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
      )}
      {view === "table" && samples.hasNextPage && (
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
