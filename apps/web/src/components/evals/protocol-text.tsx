import { segmentProtocolText, type ProtocolSegment, type SegmentKind } from "@paravt/protocol";
import { cn } from "../ui/cn";

const KIND_STYLE: Record<SegmentKind, string> = {
  think: "text-muted",
  tool_call: "rounded-sm bg-accent/10 text-accent",
  tool_code: "rounded-sm bg-accent/10 text-accent",
  tool_response: "rounded-sm bg-warning/10",
  answer: "rounded-sm bg-success/15 font-semibold text-success",
  plain: "",
};

/** A piece of a segment: its opening tag, body or closing tag, at an offset of the whole text. */
interface Piece {
  start: number;
  text: string;
  tag: boolean;
}

function piecesOf(seg: ProtocolSegment): Piece[] {
  if (seg.kind === "plain") return [{ start: seg.start, text: seg.text, tag: seg.strayClose }];
  const open = `<${seg.kind}>`.length;
  const closeStart = open + seg.body.length;
  return [
    { start: seg.start, text: seg.text.slice(0, open), tag: true },
    { start: seg.start + open, text: seg.body, tag: false },
    { start: seg.start + closeStart, text: seg.text.slice(closeStart), tag: true },
  ].filter((p) => p.text.length > 0);
}

/** What a reader should know about a segment (shown as its tooltip and to screen readers). */
function issueOf(seg: ProtocolSegment): string | null {
  if (seg.strayClose) return "closing tag without an opening tag";
  if (seg.parseable === false) return "not a parseable tool call (SPEC §4)";
  if (!seg.closed) return `<${seg.kind}> is never closed`;
  return null;
}

/**
 * Raw model text with its protocol tags (SPEC §1) highlighted by the same block rules as the
 * parsers (segmentProtocolText). Unparseable calls, unclosed blocks and stray closing tags are
 * marked. A forced prefix (SPEC §1.7: `<think>\n` appended to the prompt) is shown dimmed in
 * front, so the think block it opens reads as one.
 */
export function ProtocolText({ text, forcedPrefix }: { text: string; forcedPrefix?: string | null }) {
  const prefix = forcedPrefix ?? "";
  const segments = segmentProtocolText(prefix + text);
  return (
    <pre className="whitespace-pre-wrap break-words rounded-md border border-line bg-bg p-3 font-mono text-xs leading-relaxed">
      {segments.map((seg) => {
        const issue = issueOf(seg);
        return (
          <span
            key={seg.start}
            data-kind={seg.kind}
            title={issue ?? (seg.kind === "plain" ? undefined : seg.kind)}
            className={cn(
              KIND_STYLE[seg.kind],
              issue && "bg-danger/10 text-danger underline decoration-danger decoration-wavy underline-offset-2",
            )}
          >
            {piecesOf(seg).flatMap((p) => {
              // The part of this piece that came from the forced prefix, not from the model.
              const forced = Math.max(0, Math.min(p.text.length, prefix.length - p.start));
              const cls = p.tag ? "opacity-70 font-semibold" : undefined;
              return [
                forced > 0 && (
                  <span key={`${p.start}f`} className={cn(cls, "opacity-50")} title="forced prefix (not generated)">
                    {p.text.slice(0, forced)}
                  </span>
                ),
                forced < p.text.length && (
                  <span key={`${p.start}t`} className={cls}>
                    {p.text.slice(forced)}
                  </span>
                ),
              ];
            })}
            {issue && <span className="sr-only"> ({issue})</span>}
          </span>
        );
      })}
    </pre>
  );
}
