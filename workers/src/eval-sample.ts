// The one place where evaluation jobs meet the episode runner (@paravt/agent): which engine a
// model row opens, and one sample -> runEpisode -> scoreEpisode -> the record the eval service
// stores. Everything above this file (sharding, exactly-once storage, progress, cancellation)
// knows nothing of engines, prompts or trajectories.
import {
  KnobsError,
  loadCoreNanoEngine,
  loadOrtNanoEngine,
  OpenAIEngine,
  TemplateError,
  runEpisode,
  scoreEpisode,
  videoFrameSampler,
  withOptions,
  type ChatEngine,
  type Trajectory,
} from "@paravt/agent";
import { basename } from "node:path";
import { referenceQuestionText, type ReferenceQuestion } from "@paravt/benchmarks/reference-question";
import { storedEndpointLimits, type EvalKnobs, type EvalMode } from "@paravt/shared";
import { checkEndpointResolves, confineCheckpoint, serverEnv, type evals } from "@paravt/shared/server";
import type { Model } from "@paravt/db";
import { backendName } from "@paravt/kernels";

export interface SampleInput {
  video: { file: string; key: string; name: string };
  question: string;
  options: string[] | null;
  answer: string;
  questionType: "mcq" | "tvg" | "oe";
  subtitles?: string;
  /** Reference request style: the sample's reference question, and its scoring mark (MMVU open-ended rows). */
  reference?: { question: ReferenceQuestion; scoring?: "extract_letter" };
  mode: EvalMode;
  k: number;
  knobs: EvalKnobs;
}

/** What runSample produces: the stored record minus the keys the shard owns. */
export type SampleResult = Omit<evals.EpisodeRecord, "sampleId" | "rolloutIndex" | "modelId" | "k" | "promptMode">;

/**
 * Which engine runs a nano checkpoint in this worker: the compute core when the worker resolved
 * the CUDA backend (the gpu queue routes nano shards to such workers; the core's ops run off the
 * event loop), else onnxruntime's CPU provider, faster than the CPU core for inference
 * (bench/nano/README.md).
 */
export function nanoEvalEngineKind(backend: string): "core" | "onnxruntime" {
  return backend === "cuda" ? "core" : "onnxruntime";
}

/**
 * The engine of a registered model. Nano runs on onnxruntime in a worker thread (OrtNanoBackend
 * of @paravt/agent: the checkpoint exported to ONNX, sub-agent calls of a turn batched), or on
 * the CUDA core in a GPU worker (nanoEvalEngineKind), so the event loop keeps renewing the BullMQ
 * lock. An
 * OpenAI-compatible endpoint is re-checked against the endpoint policy after DNS resolution
 * before every connection (endpoint-policy.ts), so a name that later resolves to a metadata
 * address is refused.
 */
export async function openEvalEngine(model: Model, apiKey: string | null): Promise<ChatEngine> {
  const cfg = (model.config ?? {}) as Record<string, unknown>;
  if (model.kind === "NANO_CHECKPOINT") {
    if (typeof cfg.checkpoint !== "string") throw new Error("the model has no checkpoint directory");
    // Checked again here, not only on create (issue 37): a row written before the check or by
    // hand, or a symlink changed since, must not open another project's checkpoint. The loader's
    // own errors name server files; the user sees the reason only (the path is in the model row).
    const dir = await confineCheckpoint(model.projectId, cfg.checkpoint);
    try {
      return nanoEvalEngineKind(backendName()) === "core"
        ? await loadCoreNanoEngine(dir)
        : await loadOrtNanoEngine(dir);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).name;
      throw new Error(`the checkpoint ${cfg.checkpoint} cannot be loaded (${why})`, { cause: err });
    }
  }
  if (model.kind === "OPENAI_COMPATIBLE") {
    if (typeof cfg.baseUrl !== "string" || typeof cfg.servedModel !== "string") {
      throw new Error("the endpoint has no base URL or served model name");
    }
    // The model's own timeouts and retries; a model saved before they existed gets the defaults.
    const limits = storedEndpointLimits.safeParse(cfg);
    if (!limits.success) throw new Error(`the endpoint's timeouts are invalid: ${limits.error.issues[0]?.message}`);
    const allow = serverEnv().MODEL_ENDPOINT_ALLOW;
    return new OpenAIEngine({
      baseUrl: cfg.baseUrl,
      model: cfg.servedModel,
      ...(apiKey ? { apiKey } : {}),
      firstByteTimeoutMs: limits.data.firstByteTimeoutS * 1000,
      totalTimeoutMs: limits.data.totalTimeoutS * 1000,
      retries: limits.data.retries,
      checkUrl: (url) => checkEndpointResolves(url, allow),
    });
  }
  throw new Error("an external model has no engine; import its reference outputs instead");
}

const frames = videoFrameSampler();

/** The runner refused the run's settings (knobs, prompt templates): no sample can succeed. */
export function isRunSettingsError(err: unknown): err is Error {
  return err instanceof KnobsError || err instanceof TemplateError;
}

/** One episode, scored. Engine and video failures come back as an ERROR result, not a throw. */
export async function runSample(engine: ChatEngine, input: SampleInput, signal: AbortSignal): Promise<SampleResult> {
  const k = input.knobs;
  // The reference request asks the reference's own question text (driver.py: basename of the file).
  const question = input.reference
    ? referenceQuestionText(input.reference.question, input.mode, basename(input.video.file))
    : withOptions(input.question, input.options);
  const trajectory = await runEpisode({
    engine,
    frames,
    signal,
    input: {
      video: { file: input.video.file, key: input.video.key, path: input.video.name },
      question,
      questionType: input.questionType,
      ...(input.subtitles ? { subtitles: input.subtitles } : {}),
    },
    config: {
      mode: input.mode,
      k: input.k,
      temperature: k.temperature,
      maxTokens: k.maxTokens,
      maxTurns: k.maxTurns,
      maxParallel: k.maxParallel,
      thinkPrefix: k.thinkPrefix,
      dispatch: k.dispatch,
      requestStyle: k.requestStyle,
      videoChannel: k.videoChannel,
      ...(k.promptPreset ? { promptPreset: k.promptPreset } : {}),
      ...(k.prompts ? { prompts: k.prompts } : {}),
    },
  });
  const score = scoreEpisode(trajectory, {
    questionType: input.questionType,
    answer: input.answer,
    ...(input.reference?.scoring ? { referenceScoring: input.reference.scoring } : {}),
  });
  return toResult(trajectory, score);
}

export function toResult(t: Trajectory, s: ReturnType<typeof scoreEpisode>): SampleResult {
  const failed = t.status === "error";
  return {
    status: failed ? "ERROR" : "OK",
    error: failed
      ? `${t.error?.stage ?? "episode"} (${t.error?.kind ?? "error"}): ${t.error?.message ?? "failed"}`
      : null,
    finalText: t.finalText,
    prediction: failed ? null : s.prediction,
    score: s.score,
    correct: s.correct,
    overviewTimestamps: t.overviewTimestamps,
    timings: t.timings,
    tokenCounts: t.tokenCounts,
    details: {
      trajectoryVersion: t.version,
      engine: t.engine,
      subAgentEngine: t.subAgentEngine,
      dispatch: t.dispatch,
      toolParser: t.toolParser,
      promptPreset: t.promptPreset,
      tokenCounter: t.tokenCounter,
      duration: t.duration,
      overviewSourceTimes: t.overviewSourceTimes,
      ...(t.error ? { error: t.error } : {}),
    },
    turns: t.turns.map((turn) => ({
      index: turn.index,
      rawText: turn.rawText,
      forcedPrefix: turn.forcedPrefix,
      forcedFinal: turn.forcedFinal,
      parsedCalls: turn.parsedCalls,
      parseIssues: turn.parseIssues,
      promptTokens: turn.promptTokens,
      completionTokens: turn.completionTokens,
      timings: {
        latencyMs: turn.latencyMs,
        finish: turn.finish,
        maxTokens: turn.maxTokens,
        ...(turn.engineNotes ? { engineNotes: turn.engineNotes } : {}),
      },
      toolCalls: turn.toolCalls.map((c) => ({
        index: c.index,
        name: c.name ?? "",
        arguments: c.arguments,
        startS: c.startS,
        endS: c.endS,
        clamped: c.clamped,
        frameTimestamps: c.frameTimestamps,
        subAgentOutput: c.subAgentOutput,
        status: c.status,
        error: c.error ?? null,
        durationMs: c.durationMs,
        details: {
          requestedStartS: c.requestedStartS,
          requestedEndS: c.requestedEndS,
          frameSourceTimes: c.frameSourceTimes,
          response: c.response,
          truncated: c.truncated,
          framesMs: c.framesMs,
          tokens: c.tokens,
        },
      })),
    })),
  };
}
