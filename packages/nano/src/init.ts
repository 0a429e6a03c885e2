// Seeded randomness with a serializable state (a checkpoint records it so a resumed run draws
// the same numbers), and the reference parameter initialisation of a config.

import { elementCount, parameterLayout, type ModelConfig } from "./config";
import type { TensorMap } from "./safetensors";

/** mulberry32: one 32-bit word of state, so `state` fully captures the stream. */
export class Mulberry32 {
  static readonly algorithm = "mulberry32";
  private s: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`seed must be an integer in [0, 2^32) (got ${seed})`);
    }
    this.s = seed >>> 0;
  }

  /** The state words a checkpoint stores (`training.rng.state`). */
  get state(): number[] {
    return [this.s >>> 0];
  }

  static fromState(state: readonly number[]): Mulberry32 {
    if (state.length !== 1) throw new RangeError(`mulberry32 state is one 32-bit word (got ${state.length})`);
    return new Mulberry32(state[0]!);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box-Muller, one draw per call, two uniforms consumed). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/**
 * GPT-2 initialisation, deterministic in `config.seed`, drawn in layout order: weights of
 * linear maps and embeddings ~ N(0, 0.02²), the residual projections (attn_proj_w, fc_proj_w)
 * ~ N(0, (0.02 / sqrt(2L))²), biases 0 (`*_b`, LayerNorm biases included), norm gains 1
 * (`ln1_w`, `ln2_w`, `lnf_w`).
 */
export function initParameters(config: ModelConfig): TensorMap {
  const rng = new Mulberry32(config.seed);
  const out: TensorMap = new Map();
  const residualStd = 0.02 / Math.sqrt(2 * config.layers);
  for (const p of parameterLayout(config)) {
    const data = new Float32Array(elementCount(p.shape));
    if (/^ln\w*_w$/.test(p.name)) data.fill(1);
    else if (!p.name.endsWith("_b")) {
      const std = p.name === "attn_proj_w" || p.name === "fc_proj_w" ? residualStd : 0.02;
      for (let i = 0; i < data.length; i++) data[i] = rng.normal() * std;
    }
    out.set(p.name, { dtype: "F32", shape: p.shape, data });
  }
  return out;
}
