// The episode runner (SPEC §1, §5): one question about one video, for any ChatEngine.
//
//   overview (K frames, `<t seconds>` before each) + question  ->  main-agent turn
//   -> tool calls? dispatch the round (dispatch.ts), append the responses, next turn
//   -> no call: done.  After max_turns tool rounds the agent is asked once more for a final
//      answer with a small token budget (SPEC §5: 64 MCQ / 128 grounding).
//
// Failures never crash an episode: a bad call is an error text for that call (SPEC §1.4); an
// engine failure of the main agent ends the episode with status "error" and its reason, never a
// (wrong) answer (SPEC §5).

import { basename, resolve } from "node:path";
import { THINK_PREFIX } from "@paravt/nano";
import { isVideoError } from "@paravt/video/sampling";
import { asEngineError, runToolRound, withFinalAnswerNudge } from "./dispatch";
import type { FrameSampler, FrameSampling, OverviewResult, VideoRef } from "./frame-sampler";
import { parseEvalKnobs, type EvalKnobsInput } from "./knobs";
import { bareFrames, timestampedFrames } from "./messages";
import { renderMainPrompt, videoNameOf, type MainPrompt } from "./episode-prompts";
import { isAgentic, resolvePromptTexts, type EvalQuestionType } from "./prompts";
import { predictionOf } from "./scoring";
import { charsTokenCounter } from "./token-counter";
import { parseTurnCalls } from "./tool-calls";
import { storableJson, TRAJECTORY_VERSION, type EpisodeError, type Trajectory, type TurnRecord } from "./trajectory";
import type { ChatEngine, ChatMessage, ContentPart, CompletionRequest, TokenCounter } from "./types";

export interface EpisodeInput {
  /** The file to decode, its identity, and `path`: the video as the model sees it (tool calls, prompts). */
  video: VideoRef & { path?: string };
  question: string;
  /** Default "mcq". Picks the answer format text, the final-answer budget and the prediction. */
  questionType?: EvalQuestionType;
  /** SRT text (VideoMME with subtitles, SPEC §5). */
  subtitles?: string;
}

export interface RunEpisodeOptions {
  engine: ChatEngine;
  /** The sub-agent's engine (SPEC §1.4: the same weights); default `engine`. */
  subAgentEngine?: ChatEngine;
  input: EpisodeInput;
  /** EvalKnobs (validated; defaults = SPEC §5 locked protocol). */
  config?: EvalKnobsInput;
  frames: FrameSampler;
  /** Default: the engine's tokenizer, else ~4 characters per token. */
  tokenCounter?: TokenCounter;
  signal?: AbortSignal;
  /** Called after each main-agent turn (and its tool round) is recorded: live progress. */
  onTurn?: (turn: TurnRecord) => void;
}

/**
 * The reference's first request (driver.py `_video_user_content`): its system prompt, then the
 * video (bare frames, or the file for the `video_url` channel) and the question text.
 */
function referenceFirstMessages(main: MainPrompt, video: ContentPart[]): ChatMessage[] {
  return [
    { role: "system", content: main.system ?? "" },
    { role: "user", content: [...video, { type: "text", text: main.userAfter }] },
  ];
}

/** Runs one episode. Throws only for invalid options (KnobsError, bad templates); everything else is in the trajectory. */
export async function runEpisode(o: RunEpisodeOptions): Promise<Trajectory> {
  const started = performance.now();
  const knobs = parseEvalKnobs(o.config);
  const agentic = isAgentic(knobs.mode);
  const preset = knobs.promptPreset ?? o.engine.promptPreset ?? "generic";
  const texts = resolvePromptTexts(preset, knobs.mode, knobs.prompts);
  const counter = o.tokenCounter ?? o.engine.tokenCounter ?? charsTokenCounter();
  const subAgent = o.subAgentEngine ?? o.engine;
  const questionType = o.input.questionType ?? "mcq";
  const video: VideoRef = { file: o.input.video.file, ...(o.input.video.key ? { key: o.input.video.key } : {}) };
  const videoKey = o.input.video.key ?? o.input.video.file;
  const videoPath = o.input.video.path ?? basename(o.input.video.file);
  const videoName = videoNameOf(videoPath);
  const signal = o.signal;
  const forcedPrefix = knobs.thinkPrefix ? THINK_PREFIX : null;
  // The reference evaluator's request (reference-protocol.ts): its texts, bare frames, its sampling.
  const reference = knobs.requestStyle === "reference";
  const sampling: FrameSampling = reference ? "reference" : "workbench";
  // The reference's `is_mcq` is true for every benchmark but Charades-STA (grounding), MMVU's
  // open-ended rows included: it picks the final-answer text and budget.
  const referenceMcq = questionType !== "tvg";

  const traj: Trajectory = {
    version: TRAJECTORY_VERSION,
    status: "ok",
    mode: knobs.mode,
    dispatch: knobs.dispatch,
    toolParser: knobs.toolParser,
    questionType,
    engine: o.engine.description,
    subAgentEngine: agentic && knobs.dispatch === "subagent" ? subAgent.description : null,
    promptPreset: preset,
    tokenCounter: counter.name,
    k: knobs.k,
    duration: 0,
    overviewTimestamps: [],
    overviewSourceTimes: [],
    turns: [],
    finalText: "",
    prediction: "",
    toolCallCount: 0,
    timings: { totalMs: 0, framesMs: 0, mainMs: 0, subAgentMs: 0 },
    tokenCounts: { mainPrompt: 0, mainCompletion: 0, subAgentPrompt: 0, subAgentCompletion: 0 },
  };
  const finish = (error?: EpisodeError): Trajectory => {
    if (error) {
      traj.status = "error";
      traj.error = error;
      traj.prediction = "";
    } else {
      traj.finalText = traj.turns[traj.turns.length - 1]?.rawText ?? "";
      traj.prediction = predictionOf(traj.finalText, questionType);
    }
    traj.toolCallCount = traj.turns.reduce((n, t) => n + t.toolCalls.filter((c) => c.status !== "REJECTED").length, 0);
    traj.timings.totalMs = performance.now() - started;
    return traj;
  };
  const cancelled = (stage: EpisodeError["stage"], turn?: number): EpisodeError => ({
    kind: "cancelled",
    stage,
    message: "the episode was cancelled",
    ...(turn !== undefined ? { turn } : {}),
  });

  // SPEC §1.1 overview. On the reference's `video_url` channel the server decodes the video
  // itself: no frame is sampled here, only the duration the crop windows are checked against.
  const videoChannel = knobs.videoChannel === "video_url";
  const tf = performance.now();
  let overview: OverviewResult;
  try {
    overview = videoChannel
      ? { duration: await o.frames.duration(video), frames: [] }
      : await o.frames.overview(video, knobs.k, { ...(signal ? { signal } : {}), sampling });
  } catch (e) {
    if (signal?.aborted) return finish(cancelled("frames"));
    const message = e instanceof Error ? e.message : String(e);
    return finish({ kind: isVideoError(e) ? "video" : "internal", stage: "frames", message });
  } finally {
    traj.timings.framesMs += performance.now() - tf;
  }
  traj.duration = overview.duration;
  traj.overviewTimestamps = overview.frames.map((f) => f.timestamp);
  traj.overviewSourceTimes = overview.frames.map((f) => f.sourceTime);

  // The prompt texts (episode-prompts.ts: the one definition the workbench's transcript renders too).
  const main = renderMainPrompt({
    mode: knobs.mode,
    preset,
    requestStyle: knobs.requestStyle,
    prompts: knobs.prompts,
    question: o.input.question,
    questionType,
    subtitles: o.input.subtitles,
    videoPath,
    duration: overview.duration,
    k: knobs.k,
    maxTurns: knobs.maxTurns,
    maxParallel: knobs.maxParallel,
  });
  const finalAnswerText = main.finalAnswer;
  let messages = reference
    ? referenceFirstMessages(
        main,
        videoChannel
          ? [{ type: "video_file", url: `file://${resolve(o.input.video.file)}` }]
          : bareFrames(overview.frames, videoKey),
      )
    : workbenchFirstMessages();
  function workbenchFirstMessages(): ChatMessage[] {
    const first: ContentPart[] = [
      ...(main.userBefore ? [{ type: "text" as const, text: main.userBefore }] : []),
      ...timestampedFrames(overview!.frames, videoKey),
      ...(main.userAfter ? [{ type: "text" as const, text: main.userAfter }] : []),
    ];
    const out: ChatMessage[] = [];
    if (main.system !== null) out.push({ role: "system", content: main.system });
    out.push({ role: "user", content: first });
    return out;
  }

  let rounds = 0;
  for (let index = 0; ; index++) {
    if (signal?.aborted) return finish(cancelled("main_agent", index));
    // SPEC §5: when the last tool round is used up, the agent is asked once more for a final answer.
    const forcedFinal = agentic && knobs.maxTurns > 0 && rounds >= knobs.maxTurns;
    if (forcedFinal) {
      // The reference asks in a turn of its own; the workbench appends its nudge to the last user turn.
      messages =
        main.finalAnswerPlacement === "own_turn"
          ? [...messages, { role: "user", content: finalAnswerText }]
          : withFinalAnswerNudge(messages, finalAnswerText);
    }
    const finalBudget = knobs.finalAnswerMaxTokens[reference ? (referenceMcq ? "mcq" : "tvg") : questionType];
    const maxTokens = forcedFinal ? finalBudget : knobs.maxTokens;
    const request: CompletionRequest = {
      messages: [...messages],
      maxTokens,
      temperature: knobs.temperature,
      ...(knobs.topP !== undefined ? { topP: knobs.topP } : {}),
      ...(knobs.seed !== undefined ? { seed: knobs.seed } : {}),
      ...(forcedPrefix !== null ? { forcedPrefix } : {}),
    };
    const tm = performance.now();
    let completion;
    try {
      const out = await o.engine.complete([request], signal ? { signal } : {});
      completion = out[0];
      if (out.length !== 1 || !completion || typeof completion.text !== "string") {
        return finish({
          kind: "bad_response",
          stage: "main_agent",
          message: `the engine returned ${out.length} completions for 1 request`,
          turn: index,
        });
      }
    } catch (e) {
      if (signal?.aborted) return finish(cancelled("main_agent", index));
      const err = asEngineError(e);
      return finish({ kind: err.kind, stage: "main_agent", message: err.message, turn: index });
    } finally {
      traj.timings.mainMs += performance.now() - tm;
    }
    traj.tokenCounts.mainPrompt += completion.promptTokens;
    traj.tokenCounts.mainCompletion += completion.completionTokens;

    const parsed = parseTurnCalls(completion.text, knobs.toolParser);
    const turn: TurnRecord = {
      index,
      rawText: completion.text,
      forcedPrefix,
      parsedCalls: parsed.calls.map(storableJson),
      parseIssues: parsed.issues,
      toolCalls: [],
      promptTokens: completion.promptTokens,
      completionTokens: completion.completionTokens,
      finish: completion.finish,
      maxTokens,
      latencyMs: completion.latencyMs,
      forcedFinal,
      ...(completion.notes && completion.notes.length > 0 ? { engineNotes: completion.notes } : {}),
    };
    traj.turns.push(turn);
    messages.push({ role: "assistant", content: (forcedPrefix ?? "") + completion.text });

    // SPEC §1.6: an episode ends when a turn has no tool call. Non-agentic modes never dispatch.
    const stop = !agentic || parsed.calls.length === 0 || rounds >= knobs.maxTurns;
    if (stop) {
      if (parsed.calls.length > 0) {
        turn.parseIssues.push(
          agentic
            ? `no tool round left (max_turns = ${knobs.maxTurns}): ${parsed.calls.length} call(s) not dispatched`
            : `mode ${knobs.mode} is single pass: ${parsed.calls.length} call(s) not dispatched`,
        );
      }
      o.onTurn?.(turn);
      return finish();
    }
    rounds++;
    const round = await runToolRound({
      calls: parsed.calls,
      duration: overview.duration,
      video,
      videoKey,
      question: o.input.question,
      videoPath,
      videoName,
      knobs,
      texts,
      sampler: o.frames,
      subAgent,
      counter,
      ...(signal ? { signal } : {}),
    });
    turn.toolCalls = round.records;
    traj.timings.framesMs += round.framesMs;
    traj.timings.subAgentMs += round.subAgentMs;
    traj.tokenCounts.subAgentPrompt += round.subAgentPromptTokens;
    traj.tokenCounts.subAgentCompletion += round.subAgentCompletionTokens;
    o.onTurn?.(turn);
    if (round.fatal) return finish({ ...round.fatal, turn: index });
    messages.push(...round.messages);
  }
}
