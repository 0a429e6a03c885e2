"use client";
// What probing an OpenAI-compatible endpoint found (models.probe), shown under its row on the
// Models page: the served model and context length, whether one and several images are accepted,
// whether a reasoning parser is on, and the warnings that would spoil an evaluation.
import { endpointProbe, type EndpointProbe } from "@paravt/shared";
import { timeAgo } from "@/components/format";
import { Badge } from "@/components/ui/badge";

/** The stored probe of a model's config, or null when there is none (or it is of an older shape). */
export function storedProbe(config: Record<string, unknown>): EndpointProbe | null {
  const parsed = endpointProbe.safeParse(config.probe);
  return parsed.success ? parsed.data : null;
}

function Check({ label, ok, detail }: { label: string; ok: boolean; detail: string }) {
  return (
    <span className="inline-flex items-center gap-1.5" title={detail}>
      <Badge tone={ok ? "success" : "danger"}>{ok ? "yes" : "no"}</Badge>
      <span>{label}</span>
    </span>
  );
}

export function EndpointProbeSummary({ probe }: { probe: EndpointProbe }) {
  const one = probe.oneImage;
  const several = probe.severalImages;
  return (
    <div className="flex flex-col gap-1.5 text-xs" data-testid="endpoint-probe">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <Check
          label="model listed"
          ok={probe.servedModelListed}
          detail={probe.modelsError ?? `served: ${probe.modelIds.join(", ") || "none"}`}
        />
        <Check label="one image" ok={one.ok} detail={one.ok ? `answered "${one.answer}"` : one.error} />
        <Check
          label="several images"
          ok={several.ok}
          detail={several.ok ? `answered "${several.answer}"` : several.error}
        />
        <span className="text-muted">
          context {probe.maxModelLen === null ? "not reported" : probe.maxModelLen.toLocaleString("en-US")}
        </span>
        <span className="text-muted">
          reasoning parser {probe.reasoningParser ? `on (\`${probe.reasoningParser}\`)` : "off"}
        </span>
        <span className="text-muted">
          probed {timeAgo(new Date(probe.probedAt))} in {Math.round(probe.durationMs)} ms
        </span>
      </div>
      {[probe.modelsError, one.ok ? null : one.error, several.ok ? null : several.error, ...probe.warnings]
        .filter((w): w is string => w !== null)
        .map((w, i) => (
          <div key={i} className="text-danger">
            {w}
          </div>
        ))}
    </div>
  );
}
