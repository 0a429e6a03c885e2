import type { EvalEpisodeOutput } from "@paravt/shared";
import { Badge } from "../ui/badge";
import { ClippedText } from "./clipped-text";
import { EpisodeCalls } from "./episode-calls";
import { ms, stringList } from "./format";
import { ProtocolText } from "./protocol-text";
import { ToolCallsTable } from "./tool-calls-table";

type Turn = EvalEpisodeOutput["turns"][number];

function timingOf(timings: unknown): { latencyMs: number | null; finish: string | null } {
  const t = (timings && typeof timings === "object" ? timings : {}) as Record<string, unknown>;
  return {
    latencyMs: typeof t.latencyMs === "number" ? t.latencyMs : null,
    finish: typeof t.finish === "string" ? t.finish : null,
  };
}

/** One main-agent turn: its raw text (tags highlighted), parse issues, tool calls, tokens and time. */
export function EpisodeTurn({
  turn,
  projectId,
  episodeId,
  videoId,
  k,
  selectedWindow,
  onSelectCall,
}: {
  turn: Turn;
  projectId: string;
  episodeId: string;
  videoId: string | null;
  k: number;
  /** In the viewer: the selected window (`<turn>.<call>`) and how to select one; else the full table. */
  selectedWindow?: string | null;
  onSelectCall?: (id: string) => void;
}) {
  const issues = stringList(turn.parseIssues);
  const { latencyMs, finish } = timingOf(turn.timings);
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4"
      aria-label={`Turn ${turn.index + 1}`}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-sm font-semibold">Turn {turn.index + 1}</h3>
          {turn.forcedFinal && <Badge tone="warning">forced final answer</Badge>}
          {turn.forcedPrefix && <Badge>forced prefix</Badge>}
          {turn.toolCalls.length > 0 && (
            <Badge tone="accent">
              {turn.toolCalls.length} tool call{turn.toolCalls.length === 1 ? "" : "s"}
            </Badge>
          )}
          {finish && finish !== "stop" && <Badge tone="warning">finish: {finish}</Badge>}
        </div>
        <p className="text-xs tabular-nums text-muted">
          {turn.promptTokens ?? "—"} prompt + {turn.completionTokens ?? "—"} completion tokens · {ms(latencyMs)}
        </p>
      </header>
      {issues.length > 0 && (
        <ul
          className="flex flex-col gap-1 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-xs"
          aria-label="Parse issues"
        >
          {issues.map((i, n) => (
            <li key={n}>⚠ {i}</li>
          ))}
        </ul>
      )}
      <ClippedText
        textRef={{ projectId, episodeId, field: "rawText", turn: turn.index }}
        text={turn.rawText}
        length={turn.clipped?.rawText}
      >
        {(text) => <ProtocolText text={text} forcedPrefix={turn.forcedPrefix} />}
      </ClippedText>
      {turn.toolCalls.length > 0 &&
        (onSelectCall ? (
          <EpisodeCalls
            turn={turn.index}
            calls={turn.toolCalls}
            selected={selectedWindow ?? null}
            onSelect={onSelectCall}
          />
        ) : (
          <ToolCallsTable calls={turn.toolCalls} projectId={projectId} videoId={videoId} k={k} />
        ))}
    </section>
  );
}
