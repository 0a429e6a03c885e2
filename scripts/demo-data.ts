// What `npm start` seeds (scripts/seed-demo.ts, scripts/seed-demo-eval.ts), in one place.
import path from "node:path";

export const DEMO_USER = { email: "demo@paravt.local", password: "paravt-demo", name: "Demo Researcher" };
export const DEMO_PROJECT = "Demo: needle in a long video";
export const DEMO_VIDEOS = [20, 45, 90];
const checkpoint = (name: string) => path.resolve(import.meta.dirname, "..", "packages", "nano", "checkpoints", name);
// The committed checkpoints (packages/nano/checkpoints, trained by `paravt nano train` and, for the
// default's last six stages, packages/nano/gpu/train_sft.py): the default and an earlier, smaller
// one, so the demo has two models to compare.
export const DEFAULT_MODEL = {
  name: "nano-default (small, SFT on the core 18800 steps + torch 4455 + 1856 + 8500 + 2583 + 4576 + 803 + 665 + 1424 + 1635 + 3343, time tokens, text-first options, order read through crops)",
  checkpoint: checkpoint("default"),
  preset: "small",
};
export const TINY_MODEL = { name: "nano-tiny (SFT 1500 steps)", checkpoint: checkpoint("tiny"), preset: "tiny" };
export const DEMO_MODELS = [DEFAULT_MODEL, TINY_MODEL];
// A small needle suite: 3 videos of 1-2 minutes, 9 questions, rendered by the workers. Seed 101 is
// held out: the default checkpoint was trained on other seeds. Its mcq options are listed
// text-first ("- white (C)"), the layout the default checkpoint was last trained on (nano README,
// "Default checkpoint").
export const DEMO_SUITE = {
  name: "Demo needle suite (seed 101, held out)",
  seed: 101,
  count: 3,
  minMinutes: 1,
  maxMinutes: 2,
  optionStyle: "text-first" as const,
};
