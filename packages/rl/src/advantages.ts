// SPEC §3 advantages: each rollout's reward shaped `(r + bias) * scale`, normalized by its
// group's mean and std (GRPO), then normalized over the whole batch. Stds are population stds
// (divide by n), eps added to the std; a group whose rewards are all equal gets advantage 0.

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function std(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
}

export interface AdvantageOptions {
  bias: number;
  scale: number;
  eps: number;
  batchNormalize: boolean;
}

/** rewards[g][i]: rollout i of group g -> advantages of the same shape. */
export function computeAdvantages(rewards: readonly (readonly number[])[], o: AdvantageOptions): number[][] {
  const grouped = rewards.map((g) => {
    const shaped = g.map((r) => (r + o.bias) * o.scale);
    const m = mean(shaped);
    const s = std(shaped);
    return shaped.map((x) => (x - m) / (s + o.eps));
  });
  if (!o.batchNormalize) return grouped;
  const flat = grouped.flat();
  const m = mean(flat);
  const s = std(flat);
  return grouped.map((g) => g.map((a) => (a - m) / (s + o.eps)));
}
