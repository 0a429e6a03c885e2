"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { ClippedText } from "@/components/evals/clipped-text";
import { EpisodeOverview, OutcomeBadge } from "@/components/evals/episode-overview";
import { EpisodeViewer } from "@/components/evals/episode-viewer";
import { ProtocolText } from "@/components/evals/protocol-text";
import { useEpisode } from "@/components/evals/use-episode";
import { RewardTerms } from "@/components/training/step-rollouts-panel";
import { Alert } from "@/components/ui/alert";
import { FullTranscript } from "@/components/viewer/full-transcript";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function EpisodePage() {
  const { episodeId } = useParams<{ episodeId: string }>();
  const { projectId } = useProject();
  const trpc = useTRPC();
  // A stored episode never changes: no live refresh, cached for the session (its pages joined).
  const episode = useEpisode(projectId, episodeId);
  // Step, rollout and reward terms when the episode is a rollout an RL run kept (null otherwise).
  const training = useQuery({ ...trpc.runs.episodeStep.queryOptions({ projectId, episodeId }), staleTime: Infinity });
  const videoId = episode.data?.sample.videoId ?? null;
  // Duration, frame rate (arrow-key frame steps) and filmstrip availability of the sample's video.
  const video = useQuery({
    ...trpc.videos.byId.queryOptions({ projectId, videoId: videoId ?? "" }),
    enabled: videoId !== null,
    staleTime: 60_000,
  });

  if (episode.error) return <Alert>{errorMessage(episode.error)}</Alert>;
  const e = episode.data;
  const t = training.data;
  if (!e) return null;
  if (videoId && video.isPending && !video.error) return null;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link
          href={`/projects/${projectId}/runs/${e.run.id}`}
          className="max-w-xl truncate text-sm text-muted hover:text-fg"
        >
          {e.run.name} /
        </Link>
        <h1 className="text-lg font-semibold" data-testid="episode-title">
          Sample <span className="font-mono">{e.sample.key}</span>
        </h1>
        <OutcomeBadge e={e} />
      </div>
      {t && (
        <div
          className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-line bg-surface px-4 py-2 text-sm"
          role="group"
          aria-label="Training rollout"
        >
          <span className="font-medium" data-testid="episode-step">
            step {t.step} · rollout {t.rollout}
          </span>
          <RewardTerms terms={t.rewardTerms} />
          <Link
            href={`/projects/${projectId}/runs/${t.run.id}?step=${t.step}`}
            className="ml-auto text-accent hover:underline"
          >
            All rollouts of step {t.step}
          </Link>
        </div>
      )}
      {training.error && <Alert>{errorMessage(training.error)}</Alert>}
      {video.error && <Alert>{errorMessage(video.error)}</Alert>}
      <EpisodeViewer projectId={projectId} episode={e} video={video.data ?? null} />
      <EpisodeOverview projectId={projectId} episode={e} />
      <FullTranscript projectId={projectId} episode={e} />
      {e.finalText && e.turnCount === 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">Final response</h3>
          <ClippedText
            textRef={{ projectId, episodeId: e.id, field: "finalText" }}
            text={e.finalText}
            length={e.clipped?.finalText}
          >
            {(text) => <ProtocolText text={text} />}
          </ClippedText>
        </div>
      )}
    </div>
  );
}
