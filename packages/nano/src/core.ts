// The bridge to the compute core (`@paravt/kernels`): its config, its token ids and its flat
// parameter buffer. `parameterLayout` already lists the core's tensors in the core's order, so
// flattening is a concatenation; `coreLayoutMismatch` (and the test that calls it) makes sure
// the two can never drift.

import { createModel, FRAME_TOKEN, type KernelModel, type ModelConfig as CoreConfig } from "@paravt/kernels";
import { elementCount, parameterCount, parameterLayout, type ModelConfig } from "./config";
import type { TensorMap } from "./safetensors";
import type { Tokenizer } from "./tokenizer";

/** The core's config of a nano config (the core's LayerNorm eps is fixed at 1e-5). */
export function coreConfig(c: ModelConfig): CoreConfig {
  return {
    vocabSize: c.vocabSize,
    context: c.contextLength,
    width: c.width,
    layers: c.layers,
    heads: c.heads,
    frameDim: c.frameFeatures,
  };
}

/** Token ids for the core: the tokenizer's `<frame>` id becomes the core's `FRAME_TOKEN` (-1). */
export function toCoreTokens(ids: ArrayLike<number>, tok: Pick<Tokenizer, "frame">): Int32Array {
  const out = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    out[i] = id === tok.frame ? FRAME_TOKEN : id;
  }
  return out;
}

/**
 * The differences between `parameterLayout(config)` and a core model's layout (names, order,
 * shapes, weight-decay flags, offsets), as readable lines; [] when they agree.
 */
export function coreLayoutMismatch(
  config: ModelConfig,
  layout: readonly { name: string; shape: readonly number[]; offset: number; weightDecay: boolean }[],
): string[] {
  const ours = parameterLayout(config);
  const out: string[] = [];
  let offset = 0;
  for (let i = 0; i < Math.max(ours.length, layout.length); i++) {
    const a = ours[i];
    const b = layout[i];
    const show = (t: { name: string; shape: readonly number[] } | undefined) =>
      t ? `${t.name} [${t.shape.join(", ")}]` : "(none)";
    if (!a || !b || a.name !== b.name || a.shape.join() !== b.shape.join() || a.weightDecay !== b.weightDecay) {
      out.push(`#${i}: nano ${show(a)} vs core ${show(b)}`);
    } else if (b.offset !== offset) out.push(`#${i}: ${a.name} at core offset ${b.offset}, expected ${offset}`);
    if (a) offset += elementCount(a.shape);
  }
  return out;
}

/** The tensors of `params` concatenated in layout order: the core's parameter buffer. */
export function flattenParameters(config: ModelConfig, params: TensorMap): Float32Array {
  const out = new Float32Array(parameterCount(config));
  let offset = 0;
  for (const p of parameterLayout(config)) {
    const t = params.get(p.name);
    const n = elementCount(p.shape);
    if (!t || t.dtype !== "F32" || t.data.length !== n) {
      throw new RangeError(`parameter ${p.name}: expected ${n} F32 values`);
    }
    out.set(t.data, offset);
    offset += n;
  }
  return out;
}

/** A core parameter (or moment) buffer split into the layout's tensors (copies). */
export function unflattenParameters(config: ModelConfig, flat: Float32Array): TensorMap {
  const total = parameterCount(config);
  if (flat.length !== total) throw new RangeError(`parameter buffer has ${flat.length} floats, expected ${total}`);
  const out: TensorMap = new Map();
  let offset = 0;
  for (const p of parameterLayout(config)) {
    const n = elementCount(p.shape);
    out.set(p.name, { dtype: "F32", shape: p.shape, data: flat.slice(offset, offset + n) });
    offset += n;
  }
  return out;
}

/**
 * A core model for `config`; with `params` (e.g. `initParameters(config)` or a checkpoint's)
 * its buffer is set to them. Throws when the core's layout differs from `parameterLayout`.
 */
export function createCoreModel(config: ModelConfig, params?: TensorMap): KernelModel {
  const model = createModel(coreConfig(config), { seed: config.seed });
  const diff = coreLayoutMismatch(config, model.layout);
  if (diff.length > 0) throw new Error(`the compute core's parameter layout differs from nano's: ${diff.join("; ")}`);
  if (params) model.setParameters(flattenParameters(config, params));
  return model;
}
