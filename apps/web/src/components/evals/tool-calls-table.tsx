import type { EvalEpisodeOutput } from "@paravt/shared";
import Link from "next/link";
import { Badge } from "../ui/badge";
import { Td, Th } from "../ui/table";
import { clock, ms } from "./format";

type ToolCall = EvalEpisodeOutput["turns"][number]["toolCalls"][number];

const STATUS_TONE = { OK: "success", ERROR: "danger", REJECTED: "warning" } as const;

function Frames({ times }: { times: number[] }) {
  if (!times.length) return <span className="text-muted">—</span>;
  return (
    <details>
      <summary className="cursor-pointer tabular-nums">
        {times.length} frame{times.length === 1 ? "" : "s"}
      </summary>
      <p className="mt-1 max-w-xs font-mono text-[11px] text-muted">{times.map((t) => t.toFixed(1)).join(", ")}</p>
    </details>
  );
}

/**
 * The crop_video calls of one turn (SPEC §1.4): the window asked for and the one used (end
 * clamped to the duration), the frames sampled, the sub-agent's output or the error, and how
 * long the call took. A window opens the video at its start.
 */
export function ToolCallsTable({
  calls,
  projectId,
  videoId,
  k,
}: {
  calls: ToolCall[];
  projectId: string;
  videoId: string | null;
  k: number;
}) {
  return (
    <div className="overflow-x-auto rounded-md border border-line">
      <table className="w-full border-collapse text-xs" aria-label="Tool calls">
        <thead>
          <tr>
            <Th className="px-3">#</Th>
            <Th className="px-3">Call</Th>
            <Th className="px-3">Window</Th>
            <Th className="px-3">Frames</Th>
            <Th className="px-3">Status</Th>
            <Th className="px-3 text-right">Time</Th>
            <Th className="px-3">Output</Th>
          </tr>
        </thead>
        <tbody>
          {calls.map((c) => (
            <tr key={c.index} className="align-top">
              <Td className="px-3 tabular-nums text-muted">{c.index + 1}</Td>
              <Td className="px-3">
                <span className="font-mono">{c.name || "?"}</span>
                <details className="mt-1">
                  <summary className="cursor-pointer text-muted">arguments</summary>
                  <pre className="mt-1 max-w-xs whitespace-pre-wrap break-all font-mono text-[11px]">
                    {JSON.stringify(c.arguments, null, 1)}
                  </pre>
                </details>
              </Td>
              <Td className="whitespace-nowrap px-3 tabular-nums">
                {c.startS !== null && videoId ? (
                  <Link
                    href={`/projects/${projectId}/videos/${videoId}?t=${c.startS.toFixed(1)}&k=${k}`}
                    className="text-accent hover:underline"
                    title="Open the video at the window's start"
                  >
                    {clock(c.startS)} – {clock(c.endS)}
                  </Link>
                ) : (
                  <span>
                    {clock(c.startS)} – {clock(c.endS)}
                  </span>
                )}
                {c.startS !== null && c.endS !== null && (
                  <span className="ml-1 text-muted">({(c.endS - c.startS).toFixed(1)} s)</span>
                )}
                {c.clamped && (
                  <span className="ml-1">
                    <Badge tone="warning">clamped</Badge>
                  </span>
                )}
              </Td>
              <Td className="px-3">
                <Frames times={c.frameTimestamps} />
              </Td>
              <Td className="px-3">
                <Badge tone={STATUS_TONE[c.status]}>{c.status.toLowerCase()}</Badge>
                {c.error && <p className="mt-1 max-w-xs text-danger">{c.error}</p>}
              </Td>
              <Td className="px-3 text-right tabular-nums text-muted">{ms(c.durationMs)}</Td>
              <Td className="min-w-64 px-3">
                {c.subAgentOutput ? (
                  <p className="whitespace-pre-wrap">{c.subAgentOutput}</p>
                ) : (
                  <span className="text-muted">—</span>
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
