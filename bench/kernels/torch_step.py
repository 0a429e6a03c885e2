"""One training step of the PyTorch mirror (research/torch/train_sft.py's Nano) on a random batch of
the given shape, timed like kernels/test/profile_step.cc: forward + backward + AdamW, best of
--reps after one warm-up, on the CPU with --threads threads (torch.set_num_threads). Prints one
JSON line. The baseline a user would pick instead of the core for training on a CPU.

    python3 bench/kernels/torch_step.py --B 8 --T 384 --V 1137 --C 128 --L 4 --H 4 --P 48 --threads 2
"""

import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../research/torch"))
from train_sft import Nano  # noqa: E402  the mirror's model, as the GPU trainer runs it


def params(V, T, C, L, P, g):
    def n(*shape, std=0.02):
        return torch.randn(*shape, generator=g) * std

    return [
        ("wte", n(V, C)), ("wpe", n(T, C)), ("frame_w", n(C, P)), ("frame_b", torch.zeros(C)),
        ("ln1_w", torch.ones(L, C)), ("ln1_b", torch.zeros(L, C)),
        ("qkv_w", n(L, 3 * C, C)), ("qkv_b", torch.zeros(L, 3 * C)),
        ("attn_proj_w", n(L, C, C)), ("attn_proj_b", torch.zeros(L, C)),
        ("ln2_w", torch.ones(L, C)), ("ln2_b", torch.zeros(L, C)),
        ("fc_w", n(L, 4 * C, C)), ("fc_b", torch.zeros(L, 4 * C)),
        ("fc_proj_w", n(L, C, 4 * C)), ("fc_proj_b", torch.zeros(L, C)),
        ("lnf_w", torch.ones(C)), ("lnf_b", torch.zeros(C)),
    ]


def main():
    ap = argparse.ArgumentParser()
    for k, d in dict(B=8, T=384, V=1137, C=128, L=4, H=4, P=48, threads=2, reps=3).items():
        ap.add_argument(f"--{k}", type=int, default=d)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(1)
    model = Nano(params(a.V, max(a.T, 2048), a.C, a.L, a.P, g), {"layers": a.L, "heads": a.H, "width": a.C, "layerNormEps": 1e-5})
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
    tok = torch.randint(0, a.V, (a.B, a.T), generator=g)
    slot = (torch.arange(a.T) % 40 < 8).expand(a.B, a.T)  # 8 frame slots in every 40 positions
    fr = torch.full((a.B, a.T), -1, dtype=torch.long)
    fr[slot] = torch.arange(int(slot.sum()))
    feats = torch.rand(int(slot.sum()), a.P, generator=g)
    tgt = torch.randint(0, a.V, (a.B, a.T), generator=g)
    best = None
    for rep in range(a.reps + 1):
        t0 = time.perf_counter()
        logits = model(tok, fr, feats)
        loss = F.cross_entropy(logits.view(-1, a.V), tgt.view(-1))
        t1 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        t2 = time.perf_counter()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        t3 = time.perf_counter()
        if rep > 0 and (best is None or t3 - t0 < best[0]):
            best = (t3 - t0, t1 - t0, t2 - t1, t3 - t2)
    n = a.B * a.T
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "step_ms": best[0] * 1e3,
                      "forward_ms": best[1] * 1e3, "backward_ms": best[2] * 1e3, "update_ms": best[3] * 1e3,
                      "tokens_per_s": n / best[0]}))


if __name__ == "__main__":
    main()
