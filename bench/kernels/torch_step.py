"""The PyTorch baseline of bench/kernels/vs-torch.ts, on the CPU with --threads threads.

Training (default): one step of the PyTorch mirror (research/torch/train_sft.py's Nano) on a random
batch of the given shape: forward + cross-entropy + backward + clipping + AdamW, best of --reps
after one warm-up (wall time, and the process's CPU time: with one thread the measure that a busy
machine does not inflate). Decoding (--decode N): greedy decoding of N tokens after a --prompt-token prompt
at batch 1 with a preallocated KV cache (F.scaled_dot_product_attention over the cached keys), the
way a user would write incremental decoding for this model in PyTorch; best of --reps.
Prints one JSON line.

    python3 bench/kernels/torch_step.py --B 8 --T 384 --V 1137 --C 128 --L 4 --H 4 --P 48 --threads 2
    python3 bench/kernels/torch_step.py --decode 128 --prompt 32 --V 1137 --C 128 --L 4 --H 4 --threads 2

On a GPU (kernels/scripts/device-check.sh): --device cuda, --compile reduce-overhead (torch.compile of
the model for training; "none" is eager), --decode-batch N for batched greedy decoding.
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


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


@torch.no_grad()
def greedy_decode(model, prompt, n, max_t, batch=1, device="cpu"):
    """Greedy tokens after `prompt` (a list of ids, the same for every row of the batch) with a KV
    cache; the layers of Nano.forward."""
    p, C, H, L = model.p, model.C, model.H, model.L
    hs = C // H
    kc = torch.zeros(L, batch, H, max_t, hs, device=device)
    vc = torch.zeros(L, batch, H, max_t, hs, device=device)
    pos, out = 0, []
    tok = torch.tensor([prompt] * batch, device=device)
    for _ in range(n + 1):
        T = tok.shape[1]
        x = p["wte"][tok] + p["wpe"][pos : pos + T]
        for l in range(L):
            h = F.layer_norm(x, (C,), p["ln1_w"][l], p["ln1_b"][l], model.eps)
            q, k, v = (h @ p["qkv_w"][l].t() + p["qkv_b"][l]).split(C, dim=-1)
            q, k, v = (z.view(batch, T, H, hs).transpose(1, 2) for z in (q, k, v))
            kc[l, :, :, pos : pos + T] = k
            vc[l, :, :, pos : pos + T] = v
            # the prompt attends causally among itself; a single new token attends to the whole cache
            y = F.scaled_dot_product_attention(q, kc[l, :, :, : pos + T], vc[l, :, :, : pos + T], is_causal=T > 1)
            x = x + y.transpose(1, 2).reshape(batch, T, C) @ p["attn_proj_w"][l].t() + p["attn_proj_b"][l]
            h = F.layer_norm(x, (C,), p["ln2_w"][l], p["ln2_b"][l], model.eps)
            h = F.gelu(h @ p["fc_w"][l].t() + p["fc_b"][l], approximate="tanh")
            x = x + h @ p["fc_proj_w"][l].t() + p["fc_proj_b"][l]
        x = F.layer_norm(x[:, -1], (C,), p["lnf_w"], p["lnf_b"], model.eps)
        nxt = (x @ p["wte"].t()).argmax(-1)  # [batch]
        out.append(nxt.tolist())  # to the host each step, as a sampler reading its tokens would
        pos += T
        tok = nxt.view(batch, 1)
    return out


def main():
    ap = argparse.ArgumentParser()
    for k, d in dict(B=8, T=384, V=1137, C=128, L=4, H=4, P=48, threads=2, reps=3, decode=0, prompt=32,
                     decode_batch=1).items():
        ap.add_argument(f"--{k.replace('_', '-')}", type=int, default=d, dest=k)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--compile", choices=["none", "default", "reduce-overhead", "max-autotune"], default="none")
    a = ap.parse_args()
    dev = a.device
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(1)
    model = Nano(params(a.V, max(a.T, 2048), a.C, a.L, a.P, g), {"layers": a.L, "heads": a.H, "width": a.C, "layerNormEps": 1e-5})
    model = model.to(dev)
    if a.decode > 0:
        prompt = [(i * 37) % a.V for i in range(a.prompt)]
        times, cpu = [], []
        for _ in range(a.reps + 1):
            sync(dev)
            c0 = time.process_time()
            t0 = time.perf_counter()
            greedy_decode(model, prompt, a.decode, 2048, a.decode_batch, dev)
            sync(dev)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        best = min(times[1:])
        print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "device": dev,
                          "batch": a.decode_batch, "decode_ms": best * 1e3, "decode_cpu_ms": min(cpu[1:]) * 1e3,
                          "tokens_per_s": a.decode_batch * (a.decode + 1) / best}))
        return
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
    forward = model if a.compile == "none" else torch.compile(model, mode=None if a.compile == "default" else a.compile)
    tok = torch.randint(0, a.V, (a.B, a.T), generator=g)
    slot = (torch.arange(a.T) % 40 < 8).expand(a.B, a.T)  # 8 frame slots in every 40 positions
    fr = torch.full((a.B, a.T), -1, dtype=torch.long)
    fr[slot] = torch.arange(int(slot.sum()))
    feats = torch.rand(int(slot.sum()), a.P, generator=g)
    tgt = torch.randint(0, a.V, (a.B, a.T), generator=g)
    tok, fr, feats, tgt = (z.to(dev) for z in (tok, fr, feats, tgt))
    best = None
    cpu_best = None
    for rep in range(a.reps + (3 if a.compile != "none" else 1)):  # compiled graphs warm up longer
        sync(dev)
        c0 = time.process_time()
        t0 = time.perf_counter()
        logits = forward(tok, fr, feats)
        loss = F.cross_entropy(logits.view(-1, a.V), tgt.view(-1))
        sync(dev)
        t1 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        sync(dev)
        t2 = time.perf_counter()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sync(dev)
        t3 = time.perf_counter()
        c3 = time.process_time()
        warm = rep >= (3 if a.compile != "none" else 1)
        if warm and (best is None or t3 - t0 < best[0]):
            best = (t3 - t0, t1 - t0, t2 - t1, t3 - t2)
        if warm and (cpu_best is None or c3 - c0 < cpu_best):
            cpu_best = c3 - c0
    n = a.B * a.T
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "device": dev,
                      "compile": a.compile, "step_ms": best[0] * 1e3,
                      "forward_ms": best[1] * 1e3, "backward_ms": best[2] * 1e3, "update_ms": best[3] * 1e3, "step_cpu_ms": cpu_best * 1e3,
                      "tokens_per_s": n / best[0]}))


if __name__ == "__main__":
    main()
