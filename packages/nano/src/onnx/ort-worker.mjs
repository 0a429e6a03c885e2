// The onnxruntime worker thread of OrtNano (ort-nano.ts): it owns the InferenceSession, because
// `session.run()` of onnxruntime-node runs synchronously on the calling thread (its Promise only
// defers the start with setImmediate), so on the main thread one prefill would stall every HTTP
// request and BullMQ heartbeat of the process for its whole duration.
//
// Plain JavaScript that imports only node: built-ins and onnxruntime-node, so the same file loads
// under vitest, under `node --import tsx` (the workers process) and under plain node, with no
// TypeScript loader inside the thread.
//
// It also keeps each generation's KV cache (the new_key/new_value outputs of one run appended to
// the past_* inputs of the next), so the cache never crosses the thread boundary; only token ids,
// masks, frame features and the logits the sampler needs do.
//
// Messages (each with an `id`; the reply echoes it with `result` or `error: {name, message}`):
//   load  {model: Uint8Array, options: {intraOpNumThreads, interOpNumThreads, spin, optimization},
//          layers, heads, headDim}                          -> {inputNames, outputNames}
//   run   {feeds: {tokens, frames, attention_mask, position_ids: {type, dims, data}}, state?: string,
//          keep?: number[], last?: boolean}
//         -> {logits: Float32Array, dims}   past_* come from the cache `state` (none on its first
//            run; only its rows `keep` when given), whose new keys/values are appended to it;
//            attention_mask covers the cached and the new positions; `last` returns the logits of
//            the last position of each row only ([B, V])
//   merge {states: string[], into: string}                 -> {filled}  one-row caches -> one batch
//   drop  {state}                                          -> {}
//   close {}                                               -> {} (the session is released)
import { parentPort } from "node:worker_threads";
import * as ort from "onnxruntime-node";

let session = null;
let shape = null; // {layers, heads, headDim}
/**
 * state key -> KvCache. A cache is one buffer per layer and kind, [B, H, capacity, D], of which
 * slots [0, filled) hold the keys/values of every position run so far (all rows advance together).
 * The whole buffer is the graph's past_key/past_value input (onnxruntime reads it in place) and the
 * slots past `filled` are masked out, so a decode step writes B·H·D new floats per layer instead
 * of copying the cache like concat(past, new) would; capacity grows by CACHE_CHUNK slots.
 */
const states = new Map();
const CACHE_CHUNK = 64;

function newCache(batch, capacity) {
  const size = batch * shape.heads * capacity * shape.headDim;
  const buffers = () => Array.from({ length: shape.layers }, () => new Float32Array(size));
  return { batch, capacity, filled: 0, keys: buffers(), values: buffers() };
}

/** A copy of `cache` with rows `rows` (indices into its batch) and at least `capacity` slots. */
function resized(cache, rows, capacity) {
  const out = newCache(rows.length, capacity);
  out.filled = cache.filled;
  const { heads: H, headDim: D } = shape;
  const n = cache.filled * D;
  for (let l = 0; l < shape.layers; l++) {
    for (const kind of ["keys", "values"]) {
      const src = cache[kind][l];
      const dst = out[kind][l];
      rows.forEach((b, i) => {
        for (let h = 0; h < H; h++) {
          const from = (b * H + h) * cache.capacity * D;
          dst.set(src.subarray(from, from + n), (i * H + h) * capacity * D);
        }
      });
    }
  }
  return out;
}

/** Writes the new keys/values [B, H, S, D] of a run into slots [filled, filled + S). */
function append(cache, name, l, data, S) {
  const { heads: H, headDim: D } = shape;
  const dst = cache[name][l];
  for (let b = 0; b < cache.batch; b++) {
    for (let h = 0; h < H; h++) {
      const from = (b * H + h) * S * D;
      dst.set(data.subarray(from, from + S * D), ((b * H + h) * cache.capacity + cache.filled) * D);
    }
  }
}

async function load(msg) {
  if (session) throw new Error("a model is already loaded in this worker");
  const o = msg.options;
  session = await ort.InferenceSession.create(msg.model, {
    intraOpNumThreads: o.intraOpNumThreads,
    interOpNumThreads: o.interOpNumThreads,
    executionMode: "sequential",
    graphOptimizationLevel: o.optimization,
    // Idle intra-op threads spin-wait for the next op by default, burning a core between decode
    // steps and while the main thread samples; off unless asked for (see README "ONNX").
    extra: { session: { intra_op: { allow_spinning: o.spin ? "1" : "0" } } },
  });
  shape = { layers: msg.layers, heads: msg.heads, headDim: msg.headDim };
  return { inputNames: [...session.inputNames], outputNames: [...session.outputNames] };
}

async function run(msg) {
  if (!session) throw new Error("no model loaded");
  const feeds = {};
  for (const [name, f] of Object.entries(msg.feeds)) feeds[name] = new ort.Tensor(f.type, f.data, f.dims);
  const [batch, S] = msg.feeds.tokens.dims;
  let cache = msg.state === undefined ? undefined : states.get(msg.state);
  if (!cache) cache = newCache(batch, 0);
  if (msg.keep) cache = resized(cache, msg.keep, cache.capacity); // finished rows leave the batch
  if (cache.batch !== batch) throw new Error(`cache ${msg.state} holds ${cache.batch} rows, the feeds ${batch}`);
  // attention_mask covers [filled + S] positions; the graph sees [capacity + S]: the unused slots
  // [filled, capacity) are masked out.
  const mask = msg.feeds.attention_mask;
  if (mask.dims[1] !== cache.filled + S) {
    throw new Error(`attention_mask has ${mask.dims[1]} positions, the cache ${cache.filled} + ${S} new`);
  }
  const wide = new BigInt64Array(batch * (cache.capacity + S));
  for (let b = 0; b < batch; b++) {
    const row = mask.data.subarray(b * (cache.filled + S), (b + 1) * (cache.filled + S));
    wide.set(row.subarray(0, cache.filled), b * (cache.capacity + S));
    wide.set(row.subarray(cache.filled), b * (cache.capacity + S) + cache.capacity);
  }
  feeds.attention_mask = new ort.Tensor("int64", wide, [batch, cache.capacity + S]);
  const past = [batch, shape.heads, cache.capacity, shape.headDim];
  const fetches = ["logits"];
  for (let l = 0; l < shape.layers; l++) {
    feeds[`past_key_${l}`] = new ort.Tensor("float32", cache.keys[l], past);
    feeds[`past_value_${l}`] = new ort.Tensor("float32", cache.values[l], past);
    if (msg.state !== undefined) fetches.push(`new_key_${l}`, `new_value_${l}`);
  }
  // Only what is fetched runs: present_* (concat(past, new), a copy of the whole cache) are not.
  const out = await session.run(feeds, fetches);
  if (msg.state !== undefined) {
    if (cache.filled + S > cache.capacity) {
      const capacity = Math.ceil((cache.filled + S + 1) / CACHE_CHUNK) * CACHE_CHUNK;
      cache = resized(
        cache,
        Array.from({ length: batch }, (_, b) => b),
        capacity,
      );
    }
    for (let l = 0; l < shape.layers; l++) {
      append(cache, "keys", l, out[`new_key_${l}`].data, S);
      append(cache, "values", l, out[`new_value_${l}`].data, S);
    }
    cache.filled += S;
    states.set(msg.state, cache);
  }
  const [b, s, v] = out.logits.dims;
  const all = out.logits.data;
  // A copy: the transfer list needs a buffer this thread owns outright.
  if (!msg.last) return { logits: all.slice(), dims: [b, s, v] };
  const last = new Float32Array(b * v);
  for (let r = 0; r < b; r++) last.set(all.subarray((r * s + s - 1) * v, (r * s + s) * v), r * v);
  return { logits: last, dims: [b, v] };
}

/**
 * One batched cache `into` from the one-row caches `states` (which are dropped): row i holds
 * states[i]'s slots [0, filled_i) and nothing (masked by the caller) up to the longest one.
 */
function merge(msg) {
  const parts = msg.states.map((k) => {
    const c = states.get(k);
    if (!c || c.batch !== 1) throw new Error(`merge: no one-row cache ${k}`);
    return c;
  });
  const filled = Math.max(...parts.map((c) => c.filled));
  const out = newCache(parts.length, Math.ceil((filled + 1) / CACHE_CHUNK) * CACHE_CHUNK);
  out.filled = filled;
  const { heads: H, headDim: D } = shape;
  parts.forEach((c, i) => {
    for (let l = 0; l < shape.layers; l++) {
      for (const kind of ["keys", "values"]) {
        for (let h = 0; h < H; h++) {
          const from = h * c.capacity * D;
          out[kind][l].set(c[kind][l].subarray(from, from + c.filled * D), (i * H + h) * out.capacity * D);
        }
      }
    }
  });
  for (const k of msg.states) states.delete(k);
  states.set(msg.into, out);
  return { filled };
}

async function handle(msg) {
  switch (msg.op) {
    case "load":
      return load(msg);
    case "run":
      return run(msg);
    case "merge":
      return merge(msg);
    case "drop":
      states.delete(msg.state);
      return {};
    case "close":
      states.clear();
      if (session) await session.release();
      session = null;
      return {};
    default:
      throw new Error(`unknown op ${msg.op}`);
  }
}

// Messages are handled one at a time, in order: a run must see the cache its predecessor stored.
let queue = Promise.resolve();
parentPort.on("message", (msg) => {
  queue = queue.then(async () => {
    try {
      const result = await handle(msg);
      const transfer = result.logits ? [result.logits.buffer] : [];
      parentPort.postMessage({ id: msg.id, result }, transfer);
    } catch (e) {
      parentPort.postMessage({ id: msg.id, error: { name: e?.name ?? "Error", message: e?.message ?? String(e) } });
    }
  });
});
