import { sampleNumberWord, type EvalEpisodeOutput } from "@paravt/shared";
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Card } from "../ui/card";
import { ms, numberEntries } from "./format";
import { outcomeOf } from "./outcome";

const LETTERS = "ABCDEFGHIJ";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** "mainPrompt" -> "main prompt". */
const words = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** An episode's verdict; without one, its number in the glossary's word (IoU, score). */
export function OutcomeBadge({
  e,
}: {
  e: Pick<EvalEpisodeOutput, "status" | "correct" | "score"> & {
    sample?: Pick<EvalEpisodeOutput["sample"], "questionType">;
  };
}) {
  const o = outcomeOf(e, e.sample?.questionType, 3);
  return <Badge tone={o.tone}>{o.text}</Badge>;
}

/** The question, its options and answer, what the model predicted, and the episode's totals. */
export function EpisodeOverview({ projectId, episode: e }: { projectId: string; episode: EvalEpisodeOutput }) {
  const tokens = numberEntries(e.tokenCounts);
  const timings = numberEntries(e.timings);
  const details = (e.details && typeof e.details === "object" ? e.details : {}) as Record<string, unknown>;
  const engine = typeof details.engine === "string" ? details.engine : null;
  const dispatch = typeof details.dispatch === "string" ? details.dispatch : null;
  return (
    <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
      <Card className="flex flex-col gap-3">
        <p className="whitespace-pre-line text-sm" data-testid="episode-question">
          {e.sample.question}
        </p>
        {e.sample.options && e.sample.options.length > 0 && (
          <ol className="flex flex-col gap-1 text-sm">
            {e.sample.options.map((o, i) => {
              const letter = LETTERS[i] ?? "?";
              const isAnswer = e.sample.answer === letter;
              const isPred = e.prediction === letter;
              return (
                <li
                  key={i}
                  className={
                    isAnswer
                      ? "rounded bg-success/10 px-2 py-0.5 text-success"
                      : isPred
                        ? "rounded bg-warning/10 px-2 py-0.5 text-warning"
                        : "px-2 py-0.5"
                  }
                >
                  <span className="font-mono">{letter}.</span> {o}
                  {isAnswer && <span className="ml-2 text-xs">(answer)</span>}
                  {isPred && !isAnswer && <span className="ml-2 text-xs">(predicted)</span>}
                </li>
              );
            })}
          </ol>
        )}
        <dl className="text-sm">
          <Row label="Answer">
            <span className="font-mono">{e.sample.answer}</span>
          </Row>
          <Row label="Prediction">
            <span className="font-mono" data-testid="episode-prediction">
              {e.prediction ?? "—"}
            </span>
          </Row>
          <Row label="Outcome">
            <span className="flex items-center gap-2">
              <OutcomeBadge e={e} />
              {e.score != null && e.sample.questionType !== "mcq" && (
                <span className="text-xs tabular-nums text-muted">
                  {sampleNumberWord(e.sample.questionType)} {e.score.toFixed(3)}
                </span>
              )}
            </span>
          </Row>
        </dl>
        {e.error && <Alert>{e.error}</Alert>}
      </Card>
      <Card>
        <dl className="text-sm">
          <Row label="Sample">
            <span className="font-mono text-xs">{e.sample.key}</span> <Badge>{e.sample.questionType}</Badge>
          </Row>
          <Row label="Setting">
            {e.promptMode} · K = {e.k}
            {e.rolloutIndex > 0 && ` · rollout ${e.rolloutIndex}`}
          </Row>
          {(engine || dispatch) && (
            <Row label="Engine">
              <span className="break-all">
                {[engine, dispatch && `${dispatch} dispatch`].filter(Boolean).join(" · ")}
              </span>
            </Row>
          )}
          <Row label="Tool calls">{e.toolCallCount}</Row>
          <Row label="Overview">
            <details>
              <summary className="cursor-pointer">{e.overviewTimestamps.length} frames</summary>
              <p className="mt-1 font-mono text-[11px] text-muted">
                {e.overviewTimestamps.map((t) => t.toFixed(1)).join(", ")}
              </p>
            </details>
          </Row>
          {tokens.length > 0 && (
            <Row label="Tokens">
              <span className="flex flex-wrap gap-x-3 tabular-nums">
                {tokens.map(([k, v]) => (
                  <span key={k}>
                    <span className="text-muted">{words(k)}</span> {v}
                  </span>
                ))}
              </span>
            </Row>
          )}
          {timings.length > 0 && (
            <Row label="Time">
              <span className="flex flex-wrap gap-x-3 tabular-nums">
                {timings.map(([k, v]) => (
                  <span key={k}>
                    <span className="text-muted">{words(k.replace(/Ms$/, ""))}</span> {ms(v)}
                  </span>
                ))}
              </span>
            </Row>
          )}
          <Row label="Video">
            {e.sample.videoId ? (
              <Link
                href={`/projects/${projectId}/videos/${e.sample.videoId}?k=${e.k}`}
                className="text-accent hover:underline"
              >
                Open the video
              </Link>
            ) : (
              "—"
            )}
          </Row>
        </dl>
      </Card>
    </div>
  );
}
