"use client";
import { MAX_KEPT_ROLLOUTS_PER_STEP, RL_PRESET_NAMES } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { rlFormFromRun } from "../runs/run-config";
import { useRelaunch } from "../runs/use-relaunch";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Field, Input, Select } from "../ui/input";
import {
  EXPECTED_GATED_K,
  FRAMES_PER_CROP,
  initialRlForm,
  OVERRIDE_FIELDS,
  PRESET_LABEL,
  PRESET_RECIPES,
  presetOverrides,
  recipeRows,
  rlCostPreview,
  rlStoredText,
  rlCostText,
  specDifferences,
  suiteMaxNewTokens,
  validateRlLaunch,
  withSuite,
  type OverrideKey,
  type RlFormState,
  type RlPresetName,
  UNGATED_K,
} from "./rl-launch-state";

/**
 * Launches PARA-GRPO or vanilla GRPO (SPEC §2, §3) of ParaVT-nano on a needle suite. Validated as
 * typed with the API's own schema (rlLaunchInput), reasons next to the fields; the preset fills
 * the knobs and shows the recipe it trains with; a cost preview says what one step samples.
 * Labels avoid the SFT form's ("Steps", "Batch", "Learning rate") so both can share a page.
 */
export function TrainRlForm({
  projectId,
  datasetId,
  datasetName,
}: {
  projectId: string;
  datasetId: string;
  datasetName: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const [form, setForm] = useState<RlFormState>(() => initialRlForm(`grpo-${datasetName}`.slice(0, 120), datasetId));
  // "Relaunch with changes" (?from=<runId>): the run's settings, every knob as it ran.
  const relaunched = useRelaunch(projectId, "rl", (config) => {
    const f = rlFormFromRun(config);
    if (f) setForm(f);
  });
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const launch = useMutation(
    trpc.training.launchRl.mutationOptions({
      onSuccess: (run) => router.push(`/projects/${projectId}/runs/${run.id}`),
    }),
  );

  const suites = (datasets.data ?? []).filter((d) => d.source.kind === "needle-suite");
  const checkpoints = (models.data ?? []).filter((m) => m.kind === "NANO_CHECKPOINT");
  // Max new tokens defaults to what the chosen suite's turns need (measured at its import).
  const suiteTokens = suiteMaxNewTokens(suites.find((d) => d.id === form.datasetId)?.source);
  // The default the form holds now: the initial form's (SPEC §3's fallback) until the suite's
  // measurement is known, which may already be the case at the first render (a cached list).
  const shownDefault = useRef(Number(form.overrides.maxNewTokens));
  useEffect(() => {
    const previous = shownDefault.current;
    if (previous === suiteTokens.value) return;
    shownDefault.current = suiteTokens.value;
    setForm((f) => withSuite(f, f.datasetId, previous, suiteTokens.value));
  }, [suiteTokens.value]);
  const check = useMemo(() => validateRlLaunch(projectId, form), [projectId, form]);
  const cost = rlCostPreview(form);
  const gated = PRESET_RECIPES[form.preset].nframesGating;
  const defaults = presetOverrides(form.preset, suiteTokens.value);
  const changed = OVERRIDE_FIELDS.filter((f) => Number(form.overrides[f.key]) !== Number(defaults[f.key]));
  const notSpec = specDifferences(form.overrides);

  function update(field: string, patch: Partial<RlFormState>) {
    setForm((f) => ({ ...f, ...patch }));
    setTouched((t) => new Set(t).add(field));
  }
  const setOverride = (k: OverrideKey, v: string) =>
    update(`overrides.${k}`, { overrides: { ...form.overrides, [k]: v } });
  const error = (field: string) => (submitted || touched.has(field) ? (check.errors[field] ?? null) : null);
  // Advanced fields are hidden while closed: open it when one of them is wrong, or the reason is unseen.
  const advancedErrors = OVERRIDE_FIELDS.some((f) => check.errors[`overrides.${f.key}`]);

  function choosePreset(preset: RlPresetName) {
    // A preset is a full recipe: it resets the knobs to the defaults and its §2 weights.
    setForm((f) => ({ ...f, preset, overrides: presetOverrides(preset, suiteTokens.value) }));
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSubmitted(true);
    if (advancedErrors) setAdvanced(true);
    if (check.input) launch.mutate(check.input);
  }

  return (
    <Card>
      <CardHeader
        title="Train ParaVT-nano with RL (PARA-GRPO / vanilla GRPO)"
        description="Groups of full agentic rollouts on the suite's RL prompts, rewards per SPEC §2, clipped policy update with a KL penalty to the starting checkpoint (SPEC §3); runs on a worker's CPU core, checkpointed and resumable."
      />
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Launch an RL run">
        {relaunched && (
          <p className="text-sm text-muted" data-testid="relaunch-note">
            Pre-filled from run “{relaunched}”: change what you want and launch.
          </p>
        )}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="Run name" error={error("name")}>
            <Input value={form.name} maxLength={120} onChange={(e) => update("name", { name: e.target.value })} />
          </Field>
          <Field label="Needle suite" hint="Its RL rows are the prompts." error={error("datasetId")}>
            <Select value={form.datasetId} onChange={(e) => update("datasetId", { datasetId: e.target.value })}>
              {suites.length === 0 && <option value={datasetId}>{datasetName}</option>}
              {suites.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Starting model" hint="Policy and frozen KL reference." error={error("modelId")}>
            <Select value={form.modelId} onChange={(e) => update("modelId", { modelId: e.target.value })}>
              <option value="">committed default checkpoint</option>
              {checkpoints.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Preset" hint="SPEC §2 recipe; resets the knobs to the defaults.">
            <Select value={form.preset} onChange={(e) => choosePreset(e.target.value as RlPresetName)}>
              {RL_PRESET_NAMES.map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABEL[p]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Step count" hint="Optimizer steps of the run." error={error("steps")}>
            <Input
              type="number"
              min={1}
              value={form.steps}
              onChange={(e) => update("steps", { steps: e.target.value })}
            />
          </Field>
          <Field label="Checkpoint every" hint="Steps; 0 = only at the end." error={error("checkpointEvery")}>
            <Input
              type="number"
              min={0}
              value={form.checkpointEvery}
              onChange={(e) => update("checkpointEvery", { checkpointEvery: e.target.value })}
            />
          </Field>
          <Field label="Seed" hint="Data order, rollouts, validation split." error={error("seed")}>
            <Input type="number" min={0} value={form.seed} onChange={(e) => update("seed", { seed: e.target.value })} />
          </Field>
          <Field
            label="Rollouts kept per step"
            hint="Stored as episodes for the GRPO group inspector: whole groups first; 0 = none."
            error={error("keepRolloutsPerStep")}
          >
            <Input
              type="number"
              min={0}
              max={MAX_KEPT_ROLLOUTS_PER_STEP}
              value={form.keepRolloutsPerStep}
              onChange={(e) => update("keepRolloutsPerStep", { keepRolloutsPerStep: e.target.value })}
            />
          </Field>
        </div>

        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">What {PRESET_LABEL[form.preset]} trains with</h3>
          <table className="w-fit text-sm" aria-label="Preset recipe">
            <tbody>
              {recipeRows(form.preset).map((r) => (
                <tr key={r.label} className="border-b border-line last:border-0">
                  <th scope="row" className="py-1 pr-6 text-left font-normal text-muted">
                    {r.label}
                  </th>
                  <td className="py-1 pr-3 font-mono text-xs">{r.value}</td>
                  <td className="py-1">{r.differs && <Badge tone="accent">differs between presets</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        <div className="flex flex-col gap-3 border-t border-line pt-4">
          <div className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              size="sm"
              variant="secondary"
              aria-expanded={advanced}
              aria-controls="rl-advanced"
              onClick={() => setAdvanced((a) => !a)}
            >
              {advanced ? "Hide advanced" : "Advanced"}
            </Button>
            {changed.length === 0 ? (
              <Badge tone="success">defaults</Badge>
            ) : (
              <Badge tone="warning">changed: {changed.map((f) => f.label).join(", ")}</Badge>
            )}
            {notSpec.length === 0 ? (
              <Badge tone="success">SPEC §3 values</Badge>
            ) : (
              <Badge tone="accent">
                not SPEC §3: {notSpec.map((d) => `${d.label} ${d.value} (SPEC ${d.spec})`).join(", ")}
              </Badge>
            )}
            {advancedErrors && !advanced && (
              <span className="text-xs text-danger">An advanced setting is invalid.</span>
            )}
          </div>
          {datasets.data && (
            <p className="text-xs text-muted" data-testid="rl-max-new-tokens-reason">
              Max new tokens defaults to {suiteTokens.value}: {suiteTokens.reason}. A turn cut at the cap loses its
              answer and format; the run page warns when more than a tenth of a step&apos;s turns are cut.
            </p>
          )}
          {advanced && (
            <div id="rl-advanced" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {OVERRIDE_FIELDS.map((f) => (
                <Field
                  key={f.key}
                  label={f.label}
                  hint={`${f.hint} · default ${defaults[f.key]}`}
                  error={error(`overrides.${f.key}`)}
                >
                  <Input
                    type="number"
                    step="any"
                    value={form.overrides[f.key]}
                    onChange={(e) => setOverride(f.key, e.target.value)}
                  />
                </Field>
              ))}
            </div>
          )}
        </div>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
          <p className="text-sm tabular-nums" data-testid="rl-cost-preview" aria-live="polite">
            {rlCostText(cost)}
            <span className="block text-xs text-muted" data-testid="rl-stored-preview">
              {rlStoredText(cost, form.steps)}
            </span>
            <span className="block text-xs text-muted">
              Per rollout: {gated ? `expected K = ${EXPECTED_GATED_K} (gating)` : `K = ${UNGATED_K} (no gating)`}{" "}
              overview frames + at most max turns × max parallel × {FRAMES_PER_CROP} crop frames.
            </span>
          </p>
          <Button type="submit" disabled={launch.isPending || (submitted && !check.input)}>
            Launch RL run
          </Button>
        </div>
        {error("form") && <Alert>{error("form")}</Alert>}
        {launch.error && <Alert>{errorMessage(launch.error)}</Alert>}
      </form>
    </Card>
  );
}
