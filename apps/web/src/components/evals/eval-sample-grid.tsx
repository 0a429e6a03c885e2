"use client";
import { sampleNumberWord, type EvalSampleCard, type FlipDirection, type FlipState } from "@paravt/shared";
import { useInfiniteQuery } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CardGrid } from "./card-grid";
import { outcomeOf } from "./outcome";
import { SampleCard } from "./sample-card";
import { sampleQueryFilters, type SampleFilters } from "./sample-filters";
import { miniTimeline } from "./sample-grid-model";

const FLIP_CHIP: Record<FlipState, { text: string; tone: "success" | "warning" | "neutral" }> = {
  right_to_wrong: { text: "correct → wrong", tone: "warning" },
  wrong_to_right: { text: "wrong → correct", tone: "success" },
  unchanged: { text: "no flip", tone: "neutral" },
  not_comparable: { text: "not comparable", tone: "neutral" },
};

/** The card of one episode: outcome as the table reads it, type, K, flip, tool calls, timeline. */
function EvalCard({
  projectId,
  card,
  ...cardProps
}: {
  projectId: string;
  card: EvalSampleCard;
} & Pick<Parameters<typeof SampleCard>[0], "tabIndex" | "current" | "linkRef" | "onFocus">) {
  const timeline = miniTimeline({
    duration: card.video?.durationS ?? null,
    overviewTimestamps: card.overviewTimestamps,
    windows: card.windows,
    grounding: card.questionType === "tvg",
    answer: card.answer,
    prediction: card.prediction,
  });
  // The samples table's reading (outcome.ts), with its two decimals.
  const outcome = outcomeOf(card, card.questionType, 2);
  // A verdict with a number beside it (grounding IoU, open-ended score), as the episode page shows.
  const number = card.status === "OK" && card.questionType !== "mcq" && card.correct !== null ? card.score : null;
  return (
    <SampleCard
      {...cardProps}
      href={`/projects/${projectId}/episodes/${card.episodeId}`}
      label={`Sample ${card.key}${card.rolloutIndex > 0 ? ` rollout ${card.rolloutIndex}` : ""}: ${outcome.text}, ${card.questionType}, K = ${card.k}, ${card.toolCallCount} tool calls`}
      sampleKey={card.rolloutIndex > 0 ? `${card.key} #${card.rolloutIndex}` : card.key}
      question={card.question}
      video={card.video}
      times={card.overviewTimestamps}
      timeline={timeline}
      overviewCount={card.overviewCount}
      chips={
        <>
          <span data-testid="card-outcome" data-outcome={outcome.kind}>
            <Badge tone={outcome.tone}>{outcome.text}</Badge>
          </span>
          {number !== null && (
            <span className="text-xs tabular-nums text-muted">
              {sampleNumberWord(card.questionType)} {number.toFixed(2)}
            </span>
          )}
          <Badge>{card.questionType}</Badge>
          <Badge>K = {card.k}</Badge>
          {card.flip && (
            <span data-testid="card-flip" data-flip={card.flip}>
              <Badge tone={FLIP_CHIP[card.flip].tone}>{FLIP_CHIP[card.flip].text}</Badge>
            </span>
          )}
        </>
      }
      footer={
        <>
          <span data-testid="card-tool-calls">
            {card.toolCallCount} tool call{card.toolCallCount === 1 ? "" : "s"}
          </span>
          {card.windowCount > card.windows.length && (
            <span>
              {card.windows.length} of {card.windowCount} windows drawn
            </span>
          )}
          {card.error && (
            <span className="truncate text-danger" title={card.error}>
              {card.error}
            </span>
          )}
        </>
      }
    />
  );
}

/**
 * The grid view of an eval run's samples: the same filters, order and outcome as the samples
 * table (`evals.sampleGrid` uses the table's filter and order), a card per episode, cursor pages
 * through "Load more" or the keyboard.
 */
export function EvalSampleGrid({
  projectId,
  runId,
  filters,
  comparison,
  scope,
}: {
  projectId: string;
  runId: string;
  filters: SampleFilters;
  comparison: { vs: string | null; flipped: FlipDirection | null };
  /** Run id + view + filters: the remembered card belongs to one filtered view. */
  scope: string;
}) {
  const trpc = useTRPC();
  const cards = useInfiniteQuery(
    trpc.evals.sampleGrid.infiniteQueryOptions(
      {
        projectId,
        runId,
        ...sampleQueryFilters(filters, comparison),
        ...(comparison.vs ? { compareWith: comparison.vs } : {}),
      },
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
        empty="No samples match."
        hint="opens the episode"
        {...(more ? { onPastEnd: more } : {})}
        renderCard={(i, props) => (
          <EvalCard key={items[i]!.episodeId} projectId={projectId} card={items[i]!} {...props} />
        )}
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
