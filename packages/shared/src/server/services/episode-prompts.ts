// The prompts of one stored episode (issue 41 item 12; contract in contracts/episode-prompts.ts).
// The runner keeps no copy of the texts it sent (the trajectory has the preset's name and the
// engine's token counts only), and they are a deterministic function of the prompt preset, the
// mode, the run's knobs and the episode's question: rendered here by @paravt/agent's own template
// functions, the ones `runEpisode` builds its messages with (one definition; its test compares
// them with what a real episode sent). The inputs are the ones the jobs gave the runner: the eval
// shard's (`evalEpisodeVideoPath`, `evalEpisodeSubtitles`, `withOptions` / the reference question
// text) and train.rl's (the nano preset, agentic_general, the suite's question and video path).
// Imported and ingested runs have no known preset: the answer says so.
import { basename } from "node:path";
import {
  renderMainPrompt,
  renderSubAgentPrompt,
  videoNameOf,
  withOptions,
  type MainPromptInput,
} from "@paravt/agent/prompts";
import { referenceQuestionText, ReferenceQuestionSchema } from "@paravt/benchmarks/reference-question";
import { isAgentic, type PromptMode } from "@paravt/protocol";
import { EPISODE_PROMPTS_MAX_SUB_AGENTS, type EpisodePromptsOutput } from "../../contracts/episode-prompts";
import { evalRunConfig, type EvalKnobs } from "../../contracts/evals";
import { rlRunConfig } from "../../contracts/training";
import { NotFoundError } from "../../errors";
import { confineCheckpoint, committedCheckpointsDir } from "../checkpoint-paths";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { checkpointTokenizer, type PromptTokenizer } from "./episode-prompts-tokens";

type Meta = Record<string, unknown>;

/**
 * The video's path as an eval shows it to the model: a suite's relative path (what nano was
 * trained on), else the file name (SPEC §5: agentic modes append the video's file name).
 */
export function evalEpisodeVideoPath(meta: Meta, videoName: string): string {
  return typeof meta.suiteVideo === "string" ? meta.suiteVideo : videoName;
}

/** The subtitles an eval prefixes to the question (VideoMME with subtitles), when its knobs ask. */
export function evalEpisodeSubtitles(knobs: Pick<EvalKnobs, "subtitles">, meta: Meta): string | undefined {
  return knobs.subtitles && typeof meta.subtitles === "string" ? meta.subtitles : undefined;
}

const unavailable = (reason: string): EpisodePromptsOutput => ({ available: false, reason });

async function loadEpisode(access: ProjectAccess, episodeId: string) {
  const e = await db().episode.findFirst({
    where: { id: episodeId, run: { projectId: access.projectId } },
    include: {
      run: { select: { id: true, kind: true, jobName: true, config: true } },
      sample: { include: { video: { select: { path: true, name: true } } } },
      model: { select: { kind: true, config: true } },
      turns: {
        orderBy: { index: "asc" },
        select: {
          index: true,
          toolCalls: {
            orderBy: { index: "asc" },
            select: { index: true, status: true, startS: true, endS: true, frameTimestamps: true },
          },
        },
      },
    },
  });
  if (!e) throw new NotFoundError("Episode");
  return e;
}
type LoadedEpisode = Awaited<ReturnType<typeof loadEpisode>>;

interface Plan {
  runKind: "eval" | "rl";
  input: MainPromptInput;
  /** The question the sub-agents are told (the runner's input question, without subtitles). */
  dispatch: string;
  /** The checkpoint whose tokenizer counts the texts (nano models), or null. */
  checkpoint: string | null;
}

async function evalPlan(access: ProjectAccess, e: LoadedEpisode): Promise<Plan | string> {
  const cfg = evalRunConfig.safeParse(e.run.config);
  if (!cfg.success) return "This evaluation's settings are not readable, so its prompts cannot be rendered.";
  const knobs = cfg.data.knobs;
  const meta = (e.sample.metadata ?? {}) as Meta;
  const details = (e.details ?? {}) as Meta;
  if (!e.sample.video) return "The sample has no video, so no episode was run.";
  let question: string;
  if (knobs.requestStyle === "reference") {
    const ref = ReferenceQuestionSchema.safeParse(meta.reference);
    if (!ref.success)
      return "The sample has no reference question text (metadata.reference), so its reference prompt cannot be rendered.";
    question = referenceQuestionText(ref.data, e.promptMode as PromptMode, basename(e.sample.video.path));
  } else {
    question = withOptions(e.sample.question, Array.isArray(e.sample.options) ? (e.sample.options as string[]) : null);
  }
  const nano = e.model?.kind === "NANO_CHECKPOINT";
  const preset =
    typeof details.promptPreset === "string"
      ? details.promptPreset
      : (knobs.promptPreset ?? (nano ? "nano" : "generic"));
  const modelCheckpoint = (e.model?.config as Meta | null)?.checkpoint;
  let checkpoint: string | null = null;
  if (nano && typeof modelCheckpoint === "string") {
    checkpoint = await confineCheckpoint(access.projectId, modelCheckpoint).catch(() => null);
  }
  const subtitles = evalEpisodeSubtitles(knobs, meta);
  return {
    runKind: "eval",
    input: {
      mode: e.promptMode as PromptMode,
      preset: preset === "nano" ? "nano" : "generic",
      requestStyle: knobs.requestStyle,
      prompts: knobs.prompts,
      question,
      questionType: e.sample.questionType,
      ...(subtitles !== undefined ? { subtitles } : {}),
      videoPath: evalEpisodeVideoPath(meta, e.sample.video.name),
      duration: typeof details.duration === "number" ? details.duration : 0,
      k: e.k,
      maxTurns: knobs.maxTurns,
      maxParallel: knobs.maxParallel,
    },
    dispatch: question,
    checkpoint,
  };
}

async function rlPlan(e: LoadedEpisode): Promise<Plan | string> {
  const cfg = rlRunConfig.safeParse(e.run.config);
  if (!cfg.success) return "This RL run's settings are not readable, so its prompts cannot be rendered.";
  const meta = (e.sample.metadata ?? {}) as Meta;
  const details = (e.details ?? {}) as Meta;
  // train.rl's prompts are the suite's RL rows: the question and the video path of the suite.
  if (typeof meta.suiteVideo !== "string")
    return "The sample is not a needle-suite question, so its RL prompt is not known.";
  const checkpoint = cfg.data.initialCheckpoint ?? `${await committedCheckpointsDir()}/default`;
  return {
    runKind: "rl",
    input: {
      mode: e.promptMode as PromptMode,
      // packages/rl rollout.ts: every rollout runs the nano preset.
      preset: details.promptPreset === "generic" ? "generic" : "nano",
      requestStyle: "workbench",
      question: e.sample.question,
      questionType: e.sample.questionType,
      videoPath: meta.suiteVideo,
      duration: typeof details.duration === "number" ? details.duration : 0,
      k: e.k,
      // The trainer's own defaults are @paravt/rl's; only an override is recorded on the run, and
      // the nano texts name neither count (a template that did would be refused, not guessed).
      maxTurns: cfg.data.overrides.maxTurns ?? null,
      maxParallel: cfg.data.overrides.maxParallel ?? null,
    },
    dispatch: e.sample.question,
    checkpoint,
  };
}

async function planOf(access: ProjectAccess, e: LoadedEpisode): Promise<Plan | string> {
  if (e.run.jobName === "external") {
    return "This run was ingested from a trainer outside the workbench: its prompt preset and templates are not known here, so no prompt is shown (the question is the sample's).";
  }
  if (e.run.kind === "import") {
    return "This run was imported from a reference evaluator's output file: the file keeps the answers, not the prompts, so no prompt is shown.";
  }
  if (e.run.kind === "eval") return evalPlan(access, e);
  if (e.run.kind === "rl") return rlPlan(e);
  return `A ${e.run.kind} run's episodes have no prompts the workbench rendered.`;
}

export async function episodePrompts(access: ProjectAccess, episodeId: string): Promise<EpisodePromptsOutput> {
  const e = await loadEpisode(access, episodeId);
  const plan = await planOf(access, e);
  if (typeof plan === "string") return unavailable(plan);
  let main;
  try {
    main = renderMainPrompt(plan.input);
  } catch (err) {
    return unavailable(
      `The run's prompt templates cannot be rendered: ${err instanceof Error ? err.message : String(err)}.`,
    );
  }
  const tok: PromptTokenizer = await checkpointTokenizer(plan.checkpoint);
  const text = (t: string) => ({ text: t, count: tok.count(t) });
  const ctx = {
    question: plan.dispatch,
    videoPath: plan.input.videoPath,
    videoName: videoNameOf(plan.input.videoPath),
  };
  // Sub-agents ran only for agentic modes in the sub-agent dispatch of the workbench request style.
  const details = (e.details ?? {}) as Meta;
  const subAgentDispatch =
    isAgentic(plan.input.mode) && plan.input.requestStyle === "workbench" && details.dispatch === "subagent";
  const windows = subAgentDispatch
    ? e.turns.flatMap((t) =>
        t.toolCalls
          .filter((c) => c.status === "OK" && c.startS !== null && c.endS !== null)
          .map((c) => ({ turn: t.index, call: c.index, startS: c.startS!, endS: c.endS!, times: c.frameTimestamps })),
      )
    : [];
  const kept = windows.slice(0, EPISODE_PROMPTS_MAX_SUB_AGENTS);
  return {
    available: true,
    source: "rendered",
    runKind: plan.runKind,
    preset: plan.input.preset,
    mode: plan.input.mode,
    requestStyle: plan.input.requestStyle,
    overridden: Object.keys(plan.input.prompts ?? {}),
    tokenizer: tok.description,
    system: main.system !== null ? text(main.system) : null,
    user: {
      before: main.userBefore,
      after: main.userAfter,
      frames: e.overviewTimestamps.length,
      count: tok.count(main.userBefore + main.userAfter),
    },
    finalAnswer:
      isAgentic(plan.input.mode) && main.finalAnswer !== ""
        ? { ...text(main.finalAnswer), placement: main.finalAnswerPlacement }
        : null,
    subAgents: kept.map((w) => {
      const p = renderSubAgentPrompt(main.texts, { startS: w.startS, endS: w.endS, frameTimestamps: w.times }, ctx);
      return {
        turn: w.turn,
        call: w.call,
        system: p.system !== null ? text(p.system) : null,
        text: p.text,
        frames: w.times.length,
        count: tok.count(p.text),
      };
    }),
    subAgentsLeftOut: windows.length - kept.length,
  };
}
