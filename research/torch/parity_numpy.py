"""The model's forward in numpy, checked against the core's loss on an export's parity batch.

Runs where PyTorch does not (the development machines): it checks the export, the batch assembly
and the architecture that train_sft.py mirrors, before a GPU machine is spent on it.

    python3 research/torch/parity_numpy.py --data var/gpu/data --init packages/nano/checkpoints/default/model.safetensors
"""

import argparse

import numpy as np

from nano_data import Data, read_safetensors


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608028654 * (x + 0.044715 * x**3)))


def forward(p, cfg, tok, fr, feats):
    B, T = tok.shape
    C, H, L, eps = cfg["width"], cfg["heads"], cfg["layers"], cfg["layerNormEps"]
    hs = C // H
    x = p["wte"][tok]
    slot = fr >= 0
    x[slot] = feats[fr[slot]] @ p["frame_w"].T + p["frame_b"]
    x = x + p["wpe"][:T]
    causal = np.triu(np.full((T, T), -np.inf, dtype=np.float32), 1)
    for l in range(L):
        h = layer_norm(x, p["ln1_w"][l], p["ln1_b"][l], eps)
        qkv = h @ p["qkv_w"][l].T + p["qkv_b"][l]
        q, k, v = (z.reshape(B, T, H, hs).transpose(0, 2, 1, 3) for z in np.split(qkv, 3, axis=-1))
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs) + causal
        s = np.exp(s - s.max(-1, keepdims=True))
        y = (s / s.sum(-1, keepdims=True)) @ v
        x = x + y.transpose(0, 2, 1, 3).reshape(B, T, C) @ p["attn_proj_w"][l].T + p["attn_proj_b"][l]
        h = layer_norm(x, p["ln2_w"][l], p["ln2_b"][l], eps)
        x = x + gelu_tanh(h @ p["fc_w"][l].T + p["fc_b"][l]) @ p["fc_proj_w"][l].T + p["fc_proj_b"][l]
    return layer_norm(x, p["lnf_w"], p["lnf_b"], eps) @ p["wte"].T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--init", required=True)
    args = ap.parse_args()
    data = Data(args.data)
    p = {n: a.astype(np.float64) for n, a in read_safetensors(args.init)[0]}
    p["wte"] = p["wte"][: data.V]  # a version-2 init: its version-1 part, as the export's parity batch
    par = data.meta["parity"]
    tok, tgt, w, fr, *_ = data.batch(par["examples"], np.random.default_rng(0), 0, 0, plain=True)
    logits = forward(p, data.meta["model"], tok, fr, data.features().astype(np.float64))
    z = logits - logits.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    ce = -np.take_along_axis(logp, tgt[..., None], -1)[..., 0]
    loss = float((ce * w).sum() / w.sum())
    rel = abs(loss - par["loss"]) / abs(par["loss"])
    print(f"numpy loss {loss:.6f}, core loss {par['loss']:.6f}, relative difference {rel:.2e}")
    raise SystemExit(0 if rel < 1e-4 else 1)


if __name__ == "__main__":
    main()
