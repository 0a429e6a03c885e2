// The prompts of one stored episode (issue 41 item 12): the system message, the first user turn's
// text around the overview frames, the final-answer nudge and every sub-agent prompt. The runner
// does not store them; for an episode the workbench ran (an evaluation, an RL rollout) they are
// rendered by @paravt/agent's own template functions from the run's knobs, the sample and what
// the episode stores (services/episode-prompts.ts). An imported or ingested run has no known
// preset: the answer says so instead of inventing a prompt.
import { z } from "zod";
import { evalEpisodeRefInput } from "./evals";

export const episodePromptsInput = evalEpisodeRefInput;
export type EpisodePromptsInput = z.infer<typeof episodePromptsInput>;

/** Sub-agent prompts answered at most (a turn's calls past this are counted in `subAgentsLeftOut`). */
export const EPISODE_PROMPTS_MAX_SUB_AGENTS = 200;

/** A count of a prompt text: nano tokenizer tokens (nano models), else its characters. */
const count = z.object({ value: z.number().int().min(0), unit: z.enum(["tokens", "chars"]) });
export type EpisodePromptCount = z.infer<typeof count>;

const promptText = z.object({ text: z.string(), count });

export const episodePromptsOutput = z.discriminatedUnion("available", [
  z.object({
    available: z.literal(true),
    /** Rendered from the templates (the runner keeps no copy of the text it sent). */
    source: z.literal("rendered"),
    /** eval: an evaluation the workbench ran; rl: a train.rl rollout. */
    runKind: z.enum(["eval", "rl"]),
    preset: z.string(),
    mode: z.string(),
    requestStyle: z.enum(["workbench", "reference"]),
    /** The run overrode some of the preset's texts (`knobs.prompts`): their names. */
    overridden: z.array(z.string()),
    /** What counts are in: the checkpoint tokenizer's description, or null for characters. */
    tokenizer: z.string().nullable(),
    system: promptText.nullable(),
    /** The first user turn: its text before the K overview frames and after them. */
    user: z.object({ before: z.string(), after: z.string(), frames: z.number().int(), count }),
    finalAnswer: promptText.extend({ placement: z.enum(["appended", "own_turn"]) }).nullable(),
    subAgents: z.array(
      z.object({
        turn: z.number().int(),
        call: z.number().int(),
        system: promptText.nullable(),
        /** The text after the window's frames, exactly as sent (its leading newline included). */
        text: z.string(),
        frames: z.number().int(),
        count,
      }),
    ),
    subAgentsLeftOut: z.number().int(),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type EpisodePromptsOutput = z.infer<typeof episodePromptsOutput>;
