// Rollouts (SPEC §1, §3): full agentic episodes through the episode runner on a NanoEngine whose
// backend is the core model being trained, so every update is seen by the next rollout (weights
// change in place). The backend is wrapped to record every Generation with the request it
// answered: the sampled ids and their behaviour log-probabilities (nano `generate`: under
// softmax(logits / temperature)) are what the update trains on, so the loss sees exactly the
// tokens that were sampled, not a re-encoding of their text.

import {
  runEpisode,
  NanoEngine,
  type FrameSampler,
  type NanoBackend,
  type NanoGenerateItem,
  type Trajectory,
} from "@paravt/agent";
import type { Generation, Tokenizer } from "@paravt/nano";
import { computeReward, formatContract, formatVerdict, type RewardBreakdown } from "@paravt/protocol";
import type { RlConfig } from "./config";

/** One generation of a rollout: what was asked (turns, frames, forced prefix) and what was sampled. */
export interface RecordedGeneration {
  item: NanoGenerateItem;
  generation: Generation;
}

/** A NanoBackend that passes through to `inner` and appends every (item, generation) to `sink`. */
export class RecordingBackend implements NanoBackend {
  sink: RecordedGeneration[] = [];
  constructor(readonly inner: NanoBackend) {}

  get description(): string {
    return this.inner.description ?? "recording";
  }

  async generateBatch(items: readonly NanoGenerateItem[], opts?: { signal?: AbortSignal }): Promise<Generation[]> {
    const gens = await this.inner.generateBatch(items, opts);
    gens.forEach((generation, i) => this.sink.push({ item: items[i]!, generation }));
    return gens;
  }
}

/** The two engines of a rollout (main agent, sub-agents) over one shared backend, each recorded. */
export class RolloutEngines {
  readonly main: RecordingBackend;
  readonly sub: RecordingBackend;
  readonly mainEngine: NanoEngine;
  readonly subEngine: NanoEngine;

  constructor(
    backend: NanoBackend,
    tok: Tokenizer,
    config: { thumbnail: { width: number; height: number }; contextLength: number },
  ) {
    this.main = new RecordingBackend(backend);
    this.sub = new RecordingBackend(backend);
    const base = { tokenizer: tok, thumbnail: config.thumbnail, contextLength: config.contextLength };
    this.mainEngine = new NanoEngine({ ...base, backend: this.main, description: "nano (RL policy)" });
    // Sub-agents share the main agent's weights (SPEC §1.4); a second engine only separates the records.
    this.subEngine = new NanoEngine({ ...base, backend: this.sub, description: "nano (RL policy, sub-agent)" });
  }
}

/** One RL prompt: a question about one video. */
export interface RlPrompt {
  id: string;
  /** Absolute path of the video file. */
  file: string;
  /** The path the model sees (the suite-relative path of the RL row). */
  path: string;
  question: string;
  questionType: "mcq" | "tvg" | "oe";
  answer: string;
}

export interface Rollout {
  promptId: string;
  k: number;
  seed: number;
  trajectory: Trajectory;
  main: RecordedGeneration[];
  sub: RecordedGeneration[];
  /** All main-agent turns after the prompt, joined as the suite's oracle does (SPEC §2 input). */
  completion: string;
  reward: RewardBreakdown;
  /** Format compliant (@paravt/protocol `formatVerdict`, through `formatCompliant`). */
  formatCompliant: boolean;
}

/**
 * The completion the reward reads (SPEC §2): every turn after the first user turn, in order —
 * assistant turns with their forced prefix, tool-response user turns — joined with "\n", exactly
 * as packages/suite/src/oracle.ts builds it for the oracle's reward.
 */
export function completionText(main: readonly RecordedGeneration[]): string {
  const last = main.at(-1);
  if (!last) return "";
  const firstUser = last.item.turns.findIndex((t) => t.role === "user");
  const after = last.item.turns
    .slice(firstUser + 1)
    .map((t) =>
      typeof t.content === "string" ? t.content : t.content.map((p) => (typeof p === "string" ? p : "")).join(""),
    );
  return [...after, (last.item.forcedPrefix ?? "") + last.generation.text].join("\n");
}

/**
 * Format compliance of a rollout: the one definition of @paravt/protocol (`formatVerdict`, also
 * behind eval summaries and the review filter) on the trajectory's main-agent turns, under the
 * contract of the rollout's prompt mode; an episode that ended in an error is not compliant.
 */
export function formatCompliant(t: Trajectory): boolean {
  return t.status === "ok" && formatVerdict(t.turns, formatContract(t.mode)).compliant;
}

export interface RolloutOptions {
  engines: RolloutEngines;
  sampler: FrameSampler;
  prompt: RlPrompt;
  k: number;
  seed: number;
  temperature: number;
  config: RlConfig;
  signal?: AbortSignal;
}

/** One full agentic episode (SPEC §1) with the training parser and sub-agent dispatch, scored (SPEC §2). */
export async function runRollout(o: RolloutOptions): Promise<Rollout> {
  const { engines, config } = o;
  engines.main.sink = [];
  engines.sub.sink = [];
  const trajectory = await runEpisode({
    engine: engines.mainEngine,
    subAgentEngine: engines.subEngine,
    input: {
      video: { file: o.prompt.file, path: o.prompt.path },
      question: o.prompt.question,
      questionType: o.prompt.questionType,
    },
    frames: o.sampler,
    config: {
      mode: "agentic_general",
      dispatch: "subagent",
      toolParser: "training",
      promptPreset: "nano",
      k: o.k,
      temperature: o.temperature,
      seed: o.seed,
      maxTokens: config.maxNewTokens,
      subAgentMaxTokens: config.subAgentMaxTokens ?? config.maxNewTokens,
      maxTurns: config.maxTurns,
      maxParallel: config.maxParallel,
      thinkPrefix: config.recipe.thinkPrefix,
    },
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const main = engines.main.sink;
  const sub = engines.sub.sink;
  const completion = completionText(main);
  const reward = computeReward(
    { completion, answer: o.prompt.answer, questionType: o.prompt.questionType },
    config.recipe,
  );
  return {
    promptId: o.prompt.id,
    k: o.k,
    seed: o.seed,
    trajectory,
    main,
    sub,
    completion,
    reward: reward as RewardBreakdown,
    formatCompliant: formatCompliant(trajectory),
  };
}
