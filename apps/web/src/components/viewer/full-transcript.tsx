"use client";
import type { EvalEpisodeOutput } from "@paravt/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { ClippedText } from "../evals/clipped-text";
import { fullTextQuery } from "../evals/use-episode";
import { Button } from "../ui/button";
import { buildTranscript, countLabel, transcriptJson, wholeText, type TranscriptSection } from "./transcript";

/**
 * The episode's full transcript (issue 41 item 12): the system and user prompts and every
 * sub-agent prompt (rendered by `evals.episodePrompts` from the runner's templates, or a note
 * saying why there are none), every assistant turn, every tool call's arguments, sub-agent output
 * and tool response, each collapsible, with token counts (characters where none are known).
 * "Copy as JSON" and "Download JSON" carry every text whole (previews are fetched through
 * `evals.episodeText` first).
 */
export function FullTranscript({ projectId, episode: e }: { projectId: string; episode: EvalEpisodeOutput }) {
  const trpc = useTRPC();
  // A stored episode's prompts never change: cached for the session. An error leaves the note.
  const prompts = useQuery({
    ...trpc.evals.episodePrompts.queryOptions({ projectId, episodeId: e.id }),
    staleTime: Infinity,
  });
  const promptsError = prompts.error;
  const promptsData = useMemo(
    () =>
      promptsError
        ? { available: false as const, reason: `The prompts could not be rendered: ${errorMessage(promptsError)}` }
        : prompts.data,
    [promptsError, prompts.data],
  );
  const sections = useMemo(() => buildTranscript(e, promptsData), [e, promptsData]);
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });

  /** The transcript JSON with every preview replaced by its whole text. */
  const wholeJson = async () => {
    const whole = new Map<string, string>();
    for (const s of sections) {
      if (s.clippedLength === undefined || !s.ref) continue;
      const served = await queryClient.fetchQuery(
        fullTextQuery(trpc, queryClient, { projectId, episodeId: e.id, ...refOf(s.ref) }),
      );
      whole.set(s.id, wholeText(s, served));
    }
    return JSON.stringify(transcriptJson(e, sections, whole, promptsData), null, 2);
  };

  const run = async (what: "copy" | "download") => {
    setState({ busy: true, message: null });
    try {
      const json = await wholeJson();
      if (what === "copy") {
        await navigator.clipboard.writeText(json);
        setState({ busy: false, message: `Copied ${sections.length} sections.` });
      } else {
        const url = URL.createObjectURL(new Blob([json], { type: "application/json" }));
        const a = document.createElement("a");
        a.href = url;
        a.download = `transcript-${e.sample.key}-${e.id}.json`;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        setState({ busy: false, message: null });
      }
    } catch (err) {
      setState({ busy: false, message: errorMessage(err) });
    }
  };

  return (
    <section className="flex flex-col gap-2" aria-label="Full transcript" data-testid="full-transcript">
      <details className="rounded-lg border border-line bg-surface">
        <summary className="cursor-pointer px-4 py-2 text-sm font-semibold">
          Full transcript{" "}
          <span className="font-normal text-muted">
            ({sections.length} sections{e.nextCursor !== null ? ", more turns loading" : ""})
          </span>
        </summary>
        <div className="flex flex-col gap-2 border-t border-line p-4">
          <div className="flex flex-wrap items-center gap-2">
            <Button size="sm" disabled={state.busy} onClick={() => void run("copy")}>
              Copy as JSON
            </Button>
            <Button size="sm" variant="ghost" disabled={state.busy} onClick={() => void run("download")}>
              Download JSON
            </Button>
            {state.busy && <span className="text-xs text-muted">Loading whole texts…</span>}
            {state.message && (
              <span className="text-xs text-muted" role="status" data-testid="transcript-copy-status">
                {state.message}
              </span>
            )}
          </div>
          <ol className="flex flex-col gap-1.5">
            {sections.map((s) => (
              <li key={s.id}>
                <TranscriptEntry section={s} projectId={projectId} episodeId={e.id} />
              </li>
            ))}
          </ol>
        </div>
      </details>
    </section>
  );
}

function refOf(ref: NonNullable<TranscriptSection["ref"]>) {
  const { field, turn, call } = ref;
  return { field, ...(turn !== undefined ? { turn } : {}), ...(call !== undefined ? { call } : {}) };
}

const PRE = "max-h-[32rem] overflow-auto whitespace-pre-wrap break-words font-mono text-fg/90";

function TranscriptEntry({
  section: s,
  projectId,
  episodeId,
}: {
  section: TranscriptSection;
  projectId: string;
  episodeId: string;
}) {
  return (
    <details className="rounded-md border border-line text-xs" data-section={s.id} data-role={s.role}>
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-1.5">
        <span className="rounded bg-surface-2 px-1.5 font-mono text-[11px] text-muted">{s.role}</span>
        <span className="font-medium">{s.title}</span>
        <span className="ml-auto tabular-nums text-muted" data-testid="section-count">
          {countLabel(s.counts)}
        </span>
      </summary>
      <div className="flex flex-col gap-1 border-t border-line px-3 py-2">
        {s.note && <p className="text-muted">{s.note}</p>}
        {s.ref ? (
          <ClippedText textRef={{ projectId, episodeId, ...refOf(s.ref) }} text={s.text} length={s.clippedLength}>
            {(text) => <pre className={PRE}>{text === s.text ? text : wholeText(s, text)}</pre>}
          </ClippedText>
        ) : (
          <pre className={PRE}>{s.text}</pre>
        )}
      </div>
    </details>
  );
}
