"use client";
import type { QUESTION_TYPES } from "@paravt/shared";
import { useInfiniteQuery } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/trpc/client";
import { compareHref } from "../compare/compare-params";
import { CardGrid } from "../evals/card-grid";
import { SampleCard } from "../evals/sample-card";
import { miniTimeline } from "../evals/sample-grid-model";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { VisibleAtK } from "./visible-at-k";

/**
 * The grid view of a dataset's samples (no outcomes: nothing was run): the video's filmstrip evenly
 * over its duration, question type, the needle suite's per-K visibility, and for grounding the
 * reference span on the mini timeline. A card opens the comparison page of its sample (the runs on
 * it, side by side).
 */
export function DatasetSampleGrid({
  projectId,
  datasetId,
  questionType,
  scope,
}: {
  projectId: string;
  datasetId: string;
  questionType: (typeof QUESTION_TYPES)[number] | null;
  /** Dataset + view + type: the remembered card belongs to one view. */
  scope: string;
}) {
  const trpc = useTRPC();
  const cards = useInfiniteQuery(
    trpc.datasets.sampleGrid.infiniteQueryOptions(
      { projectId, datasetId, ...(questionType ? { questionType } : {}) },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const items = cards.data?.pages.flatMap((p) => p.items) ?? [];
  const more = cards.hasNextPage ? () => void cards.fetchNextPage() : undefined;
  return (
    <div className="flex flex-col gap-3">
      {cards.error && <Alert>{errorMessage(cards.error)}</Alert>}
      <CardGrid
        key={scope}
        label="Sample grid"
        count={items.length}
        scope={scope}
        loading={cards.isPending}
        empty="No samples yet."
        hint="compares the runs on the sample"
        {...(more ? { onPastEnd: more } : {})}
        renderCard={(i, props) => {
          const s = items[i]!;
          return (
            <SampleCard
              key={s.sampleId}
              {...props}
              href={compareHref(projectId, { sampleId: s.sampleId, runIds: [] })}
              label={`Sample ${s.key}: ${s.questionType}`}
              sampleKey={s.key}
              question={s.question}
              video={s.video}
              times={[]}
              timeline={miniTimeline({
                duration: s.video?.durationS ?? null,
                overviewTimestamps: [],
                windows: [],
                grounding: s.questionType === "tvg",
                answer: s.answer,
                prediction: null,
              })}
              overviewCount={0}
              chips={<Badge>{s.questionType}</Badge>}
              footer={
                <>
                  {s.questionType !== "tvg" && (
                    <span className="max-w-full truncate" title={s.answer}>
                      answer <span className="font-mono">{s.answer}</span>
                    </span>
                  )}
                  {s.visibleAtK && <VisibleAtK visible={s.visibleAtK} compact />}
                </>
              }
            />
          );
        }}
      />
      {cards.hasNextPage && (
        <div>
          <Button variant="secondary" onClick={more} disabled={cards.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
