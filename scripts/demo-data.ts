// What `npm start` seeds (scripts/seed-demo.ts, scripts/seed-demo-eval.ts), in one place.
import path from "node:path";

export const DEMO_USER = { email: "demo@paravt.local", password: "paravt-demo", name: "Demo Researcher" };
export const DEMO_PROJECT = "Demo: needle in a long video";
export const DEMO_VIDEOS = [20, 45, 90];
const checkpoint = (name: string) => path.resolve(import.meta.dirname, "..", "packages", "nano", "checkpoints", name);
// The committed checkpoints (packages/nano/checkpoints): the default and an earlier, smaller one,
// so the demo has two models to compare. How each was trained (lineage), the K it was trained on
// and its measured quality are in its config.json, which the Models page shows, so the names stay
// short (earlier seeds named them "<name> (<training history>)"; seed-demo.ts renames such a row).
export const DEFAULT_MODEL = { name: "nano-default", checkpoint: checkpoint("default"), preset: "small" };
export const TINY_MODEL = { name: "nano-tiny", checkpoint: checkpoint("tiny"), preset: "tiny" };
export const DEMO_MODELS = [DEFAULT_MODEL, TINY_MODEL];
// A small needle suite: 3 videos of 1-2 minutes, 9 questions, rendered by the workers. Seed 101 is
// held out: the default checkpoint was trained on other seeds. Its mcq options are listed
// text-first ("- white (C)"), the layout the default checkpoint was last trained on (its config.json
// `lineage`; research/recipes/default.sh).
export const DEMO_SUITE = {
  name: "Demo needle suite (seed 101, held out)",
  seed: 101,
  count: 3,
  minMinutes: 1,
  maxMinutes: 2,
  optionStyle: "text-first" as const,
};
