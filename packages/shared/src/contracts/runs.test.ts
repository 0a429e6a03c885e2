import { describe, expect, it } from "vitest";
import { metricGoal } from "./runs";

describe("metricGoal (the direction of a metric's best value)", () => {
  it("is min for losses, errors and truncation, whatever the prefix or separator", () => {
    for (const name of [
      "loss",
      "val_loss",
      "train/loss",
      "eval-loss",
      "policy_loss",
      "error_rate",
      "truncated_turn_rate",
    ]) {
      expect(metricGoal(name), name).toBe("min");
    }
  });

  it("is max for accuracies, rewards, compliance and outcome rates (the names train.sft / train.rl write)", () => {
    for (const name of [
      "token_accuracy",
      "reward_mean",
      "reward_acc",
      "val_reward_mean",
      "format_compliance",
      "tool_call_rate",
      "accuracy_k16",
      "val_accuracy_k8",
      "mIoU",
    ]) {
      expect(metricGoal(name), name).toBe("max");
    }
  });

  it("is null where no end is better: settings, spreads, diagnostics and timings", () => {
    for (const name of [
      "lr",
      "learning_rate",
      "reward_std",
      "kl",
      "entropy",
      "grad_norm",
      "step_time_ms",
      "tokens_per_s",
      "clip_fraction",
    ]) {
      expect(metricGoal(name), name).toBeNull();
    }
  });
});
