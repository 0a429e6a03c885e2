"use client";
import { adhocQuestion, evalCompareRunInput } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field, Input, Select } from "../ui/input";
import { ModelChoices, type ModelChoice } from "./run-pickers";

interface Adhoc {
  videoId: string;
  question: string;
  questionType: "oe" | "mcq";
  options: string;
  answer: string;
}

/**
 * "Run now": the chosen sample (or, without one, a project video and a question of one's own) on
 * 2–4 models, each its own one-sample eval run on the queue. Validated with the API's schema
 * before sending; on success the page's URL gets the new sample and runs.
 */
export function RunNowForm({
  projectId,
  sampleId,
  onLaunched,
}: {
  projectId: string;
  sampleId: string | null;
  onLaunched: (sampleId: string, runIds: string[]) => void;
}) {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const videos = useQuery({ ...trpc.videos.list.queryOptions({ projectId }), enabled: sampleId === null });
  const [choices, setChoices] = useState<ModelChoice[]>([
    { modelId: "", mode: "agentic_general", k: 16 },
    { modelId: "", mode: "agentic_general", k: 16 },
  ]);
  const [adhoc, setAdhoc] = useState<Adhoc>({ videoId: "", question: "", questionType: "oe", options: "", answer: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const run = useMutation(
    trpc.evals.compareRun.mutationOptions({
      onSuccess: (out) =>
        onLaunched(
          out.sampleId,
          out.runs.map((r) => r.id),
        ),
    }),
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    const modelsInput = choices.map((c) => ({ ...c, knobs: {} }));
    if (choices.some((c) => !c.modelId)) return setProblem("Pick a model in every row");
    let input: unknown;
    if (sampleId) input = { projectId, sampleId, models: modelsInput };
    else {
      const q = adhocQuestion.safeParse({
        videoId: adhoc.videoId,
        question: adhoc.question,
        questionType: adhoc.questionType,
        answer: adhoc.answer,
        ...(adhoc.questionType === "mcq"
          ? {
              options: adhoc.options
                .split("\n")
                .map((o) => o.trim())
                .filter(Boolean),
            }
          : {}),
      });
      if (!adhoc.videoId) return setProblem("Pick a video");
      if (!q.success) return setProblem(q.error.issues.map((i) => i.message).join("; "));
      input = { projectId, adhoc: q.data, models: modelsInput };
    }
    const parsed = evalCompareRunInput.safeParse(input);
    if (!parsed.success) return setProblem(parsed.error.issues.map((i) => i.message).join("; "));
    setProblem(null);
    run.mutate(parsed.data);
  }

  return (
    <form aria-label="Run now" onSubmit={submit} className="flex flex-col gap-3">
      {!sampleId && (
        <fieldset className="flex flex-col gap-2" aria-label="Your own question">
          <legend className="mb-1 text-sm font-medium">…or a video and your own question</legend>
          <Field label="Video">
            <Select value={adhoc.videoId} onChange={(e) => setAdhoc({ ...adhoc, videoId: e.target.value })}>
              <option value="">pick a video</option>
              {(videos.data ?? [])
                .filter((v) => v.status !== "FAILED")
                .map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
            </Select>
          </Field>
          <Field label="Question">
            <Input value={adhoc.question} onChange={(e) => setAdhoc({ ...adhoc, question: e.target.value })} />
          </Field>
          <div className="flex flex-wrap gap-3">
            <div className="w-44">
              <Field label="Question type">
                <Select
                  value={adhoc.questionType}
                  onChange={(e) => setAdhoc({ ...adhoc, questionType: e.target.value as "oe" | "mcq" })}
                >
                  <option value="oe">open-ended</option>
                  <option value="mcq">multiple choice</option>
                </Select>
              </Field>
            </div>
            <div className="w-44">
              <Field label={adhoc.questionType === "mcq" ? "Correct letter" : "Reference answer"}>
                <Input value={adhoc.answer} onChange={(e) => setAdhoc({ ...adhoc, answer: e.target.value })} />
              </Field>
            </div>
          </div>
          {adhoc.questionType === "mcq" && (
            <Field label="Options" hint="One per line; they get the letters A, B, C… in this order">
              <textarea
                rows={4}
                value={adhoc.options}
                onChange={(e) => setAdhoc({ ...adhoc, options: e.target.value })}
                className="rounded-md border border-line bg-surface px-3 py-2 text-sm"
              />
            </Field>
          )}
        </fieldset>
      )}
      <ModelChoices models={models.data ?? []} value={choices} onChange={setChoices} />
      {problem && <Alert>{problem}</Alert>}
      {run.error && <Alert>{errorMessage(run.error)}</Alert>}
      <div>
        <Button type="submit" disabled={run.isPending}>
          {run.isPending ? "Queueing…" : "Run now"}
        </Button>
      </div>
    </form>
  );
}
