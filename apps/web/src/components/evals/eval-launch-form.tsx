"use client";
import { DISPATCH_STYLES, EVAL_MODES, type EvalMode, type NanoCheckpointInfo } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { evalFormFromRun } from "../runs/run-config";
import { useRelaunch } from "../runs/use-relaunch";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Field, Input, Select } from "../ui/input";
import { storedProbe } from "@/components/models/endpoint-probe";
import { kText } from "@/components/models/nano-checkpoint-text";
import { CheckboxGroup } from "./checkbox-group";
import { MODE_HINT, MODE_LABEL } from "./format";
import {
  changedFromLocked,
  initialLaunchForm,
  K_CHOICES,
  LOCKED_KNOBS,
  nanoKAdvice,
  preview,
  previewText,
  validateLaunch,
  type LaunchFormState,
} from "./launch-form-state";

const DISPATCH_LABEL: Record<(typeof DISPATCH_STYLES)[number], string> = {
  evaluator: "evaluator: crop frames go back to the main agent",
  subagent: "sub-agent: each crop returns a text summary",
};

function Check({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  hint: string;
}) {
  return (
    <div className="flex flex-col gap-1.5 text-sm">
      <label className="flex h-10 cursor-pointer items-center gap-2 font-medium">
        <input
          type="checkbox"
          className="accent-[var(--accent)]"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      <span className="text-xs text-muted">{hint}</span>
    </div>
  );
}

/**
 * Launches models × datasets × prompt modes × K as one evaluation group. Validated as typed with
 * the API's own schema (evalLaunchInput) and evalModelProblems, so reasons show next to the
 * fields before anything is sent.
 */
/** The form's K fields holding only `k` (a K the checkboxes do not offer goes to "Other K values"). */
function onlyK(k: number): Pick<LaunchFormState, "ks" | "otherKs"> {
  return (K_CHOICES as readonly number[]).includes(k) ? { ks: [k], otherKs: "" } : { ks: [], otherKs: String(k) };
}

/**
 * The kind; for a nano checkpoint its short id and the K it was trained on (from the checkpoint,
 * Models page), for an endpoint what its last probe found, so problems show before launching.
 */
function modelHint(m: { kind: string; config: Record<string, unknown>; nano: NanoCheckpointInfo | null }): string {
  const kind = m.kind.toLowerCase().replace("_", " ");
  if (m.kind === "NANO_CHECKPOINT" && m.nano) {
    if (m.nano.problem) return `${kind} · ${m.nano.problem}`;
    const trained = m.nano.trainedKs ? `trained on ${kText(m.nano.trainedKs)}` : "trained K not recorded";
    return `${kind} · #${m.nano.shortId} · ${trained}`;
  }
  if (m.kind !== "OPENAI_COMPATIBLE") return kind;
  const probe = storedProbe(m.config);
  if (!probe) return `${kind} · not probed yet (Models page)`;
  const problems = [
    probe.modelsError,
    probe.oneImage.ok ? null : probe.oneImage.error,
    ...probe.warnings, // includes "several images per request are refused"
  ].filter((p) => p !== null);
  return problems.length === 0
    ? `${kind} · probe ok`
    : `${kind} · probe: ${problems.length} problem(s), see Models page`;
}

export function EvalLaunchForm({ projectId, initialModelIds }: { projectId: string; initialModelIds?: string[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const [form, setForm] = useState<LaunchFormState>(() => ({
    ...initialLaunchForm(`eval ${new Date().toISOString().slice(0, 16).replace("T", " ")}`),
    // "Evaluate this model" on the Models page: /evals?model=<id> (issue 41 item 7).
    modelIds: initialModelIds ?? [],
  }));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  // "Relaunch with changes" (?from=<runId>): that run's model, dataset, mode, K and knobs.
  const relaunched = useRelaunch(projectId, "eval", (config) => {
    const f = evalFormFromRun(config);
    if (f) setForm(f);
  });
  const [submitted, setSubmitted] = useState(false);
  const launch = useMutation(
    trpc.evals.launch.mutationOptions({
      onSuccess: (out) => router.push(`/projects/${projectId}/evals/${out.group.id}`),
    }),
  );

  const modelRows = useMemo(() => models.data ?? [], [models.data]);
  const datasetRows = useMemo(() => datasets.data ?? [], [datasets.data]);
  const check = useMemo(() => validateLaunch(projectId, form, modelRows), [projectId, form, modelRows]);
  const plan = useMemo(() => preview(form, datasetRows), [form, datasetRows]);
  const changed = changedFromLocked(form);
  const kAdvice = useMemo(() => nanoKAdvice(form, modelRows), [form, modelRows]);

  function update(field: string, patch: Partial<LaunchFormState>) {
    setForm((f) => ({ ...f, ...patch }));
    setTouched((t) => new Set(t).add(field));
  }
  const setKnob = (k: keyof LaunchFormState["knobs"], v: string) =>
    update(`knobs.${k}`, { knobs: { ...form.knobs, [k]: v } });
  const error = (field: string) => (submitted || touched.has(field) ? (check.errors[field] ?? null) : null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSubmitted(true);
    if (check.input) launch.mutate(check.input);
  }

  const modelsError = error("modelIds") ?? (check.modelProblems.length ? check.modelProblems.join("; ") : null);
  return (
    <Card>
      <CardHeader
        title="Launch an evaluation"
        description="Every model × dataset × prompt mode × K is one run; runs are sharded over the workers and resume per sample after a crash."
      />
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Launch an evaluation">
        {relaunched && (
          <p className="text-sm text-muted" data-testid="relaunch-note">
            Pre-filled from run “{relaunched}”: change what you want and launch.
          </p>
        )}
        <Field label="Evaluation name" error={error("name")}>
          <Input value={form.name} maxLength={120} onChange={(e) => update("name", { name: e.target.value })} />
        </Field>

        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          <CheckboxGroup
            legend="Models"
            options={modelRows.map((m) => ({
              value: m.id,
              label: m.name,
              hint: modelHint(m),
            }))}
            selected={form.modelIds}
            onChange={(modelIds) => update("modelIds", { modelIds })}
            error={modelsError}
            empty="No models yet: add one on the Models page."
          />
          <CheckboxGroup
            legend="Datasets"
            options={datasetRows.map((d) => ({ value: d.id, label: d.name, hint: `${d.sampleCount} samples` }))}
            selected={form.datasetIds}
            onChange={(datasetIds) => update("datasetIds", { datasetIds })}
            error={error("datasetIds")}
            empty="No datasets yet: generate or import one on the Datasets page."
          />
          <CheckboxGroup
            legend="Prompt modes"
            options={EVAL_MODES.map((m) => ({ value: m, label: MODE_LABEL[m], hint: MODE_HINT[m] }))}
            selected={form.modes}
            onChange={(modes: EvalMode[]) => update("modes", { modes })}
            error={error("modes")}
          />
          <div className="flex flex-col gap-3">
            <CheckboxGroup
              legend="Overview frames K"
              inline
              options={K_CHOICES.map((k) => ({ value: k, label: String(k) }))}
              selected={form.ks}
              onChange={(ks) => update("ks", { ks })}
              error={error("ks")}
            />
            <Field label="Other K values" hint="Comma separated, 1–256. SPEC §5 headline rows use K = 64.">
              <Input
                value={form.otherKs}
                placeholder="e.g. 12, 128"
                onChange={(e) => update("ks", { otherKs: e.target.value })}
              />
            </Field>
            {kAdvice && (
              <Alert tone="info">
                <span data-testid="nano-k-advice">{kAdvice.text}</span>{" "}
                {kAdvice.suggestedK !== null && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    onClick={() => update("ks", onlyK(kAdvice.suggestedK!))}
                  >
                    Use K = {kAdvice.suggestedK}
                  </Button>
                )}
              </Alert>
            )}
          </div>
        </div>

        <div className="flex flex-col gap-3 border-t border-line pt-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-semibold">Episode settings</h3>
            {changed.length === 0 ? (
              <Badge tone="success">SPEC §5 locked protocol</Badge>
            ) : (
              <>
                <Badge tone="warning">changed from the locked protocol: {changed.join(", ")}</Badge>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() =>
                    setForm((f) => {
                      const locked = initialLaunchForm(f.name);
                      return {
                        ...f,
                        knobs: locked.knobs,
                        thinkPrefix: locked.thinkPrefix,
                        dispatch: locked.dispatch,
                        requestStyle: locked.requestStyle,
                        videoChannel: locked.videoChannel,
                      };
                    })
                  }
                >
                  Reset to locked defaults
                </Button>
              </>
            )}
          </div>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              label="Temperature"
              hint={`SPEC §5 locked: ${LOCKED_KNOBS.temperature}`}
              error={error("knobs.temperature")}
            >
              <Input
                type="number"
                step="any"
                value={form.knobs.temperature}
                onChange={(e) => setKnob("temperature", e.target.value)}
              />
            </Field>
            <Field
              label="Max tokens"
              hint={`SPEC §5 locked: ${LOCKED_KNOBS.maxTokens}`}
              error={error("knobs.maxTokens")}
            >
              <Input
                type="number"
                value={form.knobs.maxTokens}
                onChange={(e) => setKnob("maxTokens", e.target.value)}
              />
            </Field>
            <Field
              label="Max turns"
              hint={`SPEC §5 locked: ${LOCKED_KNOBS.maxTurns} tool rounds`}
              error={error("knobs.maxTurns")}
            >
              <Input type="number" value={form.knobs.maxTurns} onChange={(e) => setKnob("maxTurns", e.target.value)} />
            </Field>
            <Field
              label="Max parallel"
              hint={`SPEC §5 locked: ${LOCKED_KNOBS.maxParallel} calls per turn`}
              error={error("knobs.maxParallel")}
            >
              <Input
                type="number"
                value={form.knobs.maxParallel}
                onChange={(e) => setKnob("maxParallel", e.target.value)}
              />
            </Field>
            <Field
              label="Request"
              hint="Ours (timestamped frames, our prompts), or exactly the request of the reference evaluator's driver.py (docs/serving.md)."
              error={error("knobs.requestStyle")}
            >
              <Select
                value={form.requestStyle}
                onChange={(e) => {
                  const requestStyle = e.target.value as LaunchFormState["requestStyle"];
                  // The reference request has one dispatch, no think prefix and its own wording.
                  const fixed =
                    requestStyle === "reference"
                      ? { dispatch: "evaluator" as const, thinkPrefix: false, promptPreset: "" as const }
                      : { videoChannel: "image_url" as const };
                  update("knobs.requestStyle", { requestStyle, ...fixed });
                }}
              >
                <option value="workbench">Workbench</option>
                <option value="reference">Reference evaluator</option>
              </Select>
            </Field>
            {form.requestStyle === "reference" && (
              <Field
                label="Video channel"
                hint="The reference sends frames for MCQ benchmarks and the file (server-side decoding) for Charades-STA; the server must see the same path."
                error={error("knobs.videoChannel")}
              >
                <Select
                  value={form.videoChannel}
                  onChange={(e) =>
                    update("knobs.videoChannel", { videoChannel: e.target.value as LaunchFormState["videoChannel"] })
                  }
                >
                  <option value="image_url">image_url (frames)</option>
                  <option value="video_url">video_url (file)</option>
                </Select>
              </Field>
            )}
            <Field
              label="Dispatch style"
              hint="SPEC §5: headline rows use the evaluator's style."
              error={error("knobs.dispatch")}
            >
              <Select
                value={form.dispatch}
                onChange={(e) => update("knobs.dispatch", { dispatch: e.target.value as LaunchFormState["dispatch"] })}
              >
                {DISPATCH_STYLES.map((d) => (
                  <option key={d} value={d}>
                    {DISPATCH_LABEL[d]}
                  </option>
                ))}
              </Select>
            </Field>
            <Check
              label="Think prefix"
              checked={form.thinkPrefix}
              onChange={(thinkPrefix) => update("knobs.thinkPrefix", { thinkPrefix })}
              hint={`Force "<think>\\n" before every main-agent turn (SPEC §1.7); locked: ${LOCKED_KNOBS.thinkPrefix ? "on" : "off"}.`}
            />
            <Check
              label="Subtitles"
              checked={form.subtitles}
              onChange={(subtitles) => update("knobs.subtitles", { subtitles })}
              hint="Prefix the sample's subtitles to the question (VideoMME with subtitles)."
            />
          </div>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Field
              label="Sample limit"
              hint="First N samples of each dataset; empty: all."
              error={error("sampleLimit")}
            >
              <Input
                type="number"
                min={1}
                value={form.sampleLimit}
                placeholder="all"
                onChange={(e) => update("sampleLimit", { sampleLimit: e.target.value })}
              />
            </Field>
            <Field label="Shard size" hint="Samples per worker job." error={error("shardSize")}>
              <Input
                type="number"
                value={form.shardSize}
                onChange={(e) => update("shardSize", { shardSize: e.target.value })}
              />
            </Field>
            <Field label="Split" hint="Only samples whose split is this; empty: all." error={error("split")}>
              <Input
                value={form.split}
                placeholder="all"
                onChange={(e) => update("split", { split: e.target.value })}
              />
            </Field>
            <Field label="Prompt preset" hint="Prompt wording family of the episode runner.">
              <Select
                value={form.promptPreset}
                onChange={(e) =>
                  update("knobs.promptPreset", { promptPreset: e.target.value as LaunchFormState["promptPreset"] })
                }
              >
                <option value="">engine default</option>
                <option value="generic">generic</option>
                <option value="nano">nano</option>
              </Select>
            </Field>
          </div>
        </div>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
          <p className="text-sm tabular-nums" data-testid="launch-preview" aria-live="polite">
            {previewText(plan)}
            {form.split.trim() && plan.runs > 0 && <span className="text-muted"> (before the split filter)</span>}
          </p>
          <Button type="submit" disabled={launch.isPending || (submitted && !check.input)}>
            Launch evaluation
          </Button>
        </div>
        {error("form") && <Alert>{error("form")}</Alert>}
        {launch.error && <Alert>{errorMessage(launch.error)}</Alert>}
      </form>
    </Card>
  );
}
