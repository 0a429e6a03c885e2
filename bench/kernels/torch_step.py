"""The PyTorch baseline of the kernel benchmarks: bench/kernels/vs-torch.ts on the CPU, and
kernels/scripts/device-check.sh on a GPU.

Model: the PyTorch mirror (research/torch/train_sft.py's Nano). Measures, each the best of --reps
after warm-up (wall time, and the process's CPU time):
- an SFT step: forward + cross-entropy + backward + global-norm clipping + AdamW;
- an RL step (--rl): a no-grad forward for the rollout's log-probabilities, then the clipped PPO
  surrogate (token-mean over the mask, kl 0, as kernels/test/bench_cuda.cc) + backward + clipping +
  AdamW;
- greedy decoding (--decode N): N tokens after a --prompt-token prompt at --decode-batch rows with a
  preallocated KV cache (F.scaled_dot_product_attention over the cached keys), the way a user would
  write incremental decoding for this model in PyTorch.
Prints one JSON line; --suite prints one line per measure of a config (the device check: one
process, so torch is imported and CUDA initialised once).

    python3 bench/kernels/torch_step.py --B 8 --T 384 --V 1137 --C 128 --L 4 --H 4 --P 48 --threads 2
    python3 bench/kernels/torch_step.py --decode 128 --prompt 32 --V 1137 --C 128 --L 4 --H 4 --threads 2
    python3 bench/kernels/torch_step.py --device cuda --suite --compile reduce-overhead --B 8 --T 512 ...

--compile reduce-overhead wraps the model in torch.compile ("none" is eager); --deadline (Unix
seconds) makes --suite skip its compiled measures once too little time is left.
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

CLIP_LOW, CLIP_HIGH = 0.2, 0.28  # the RL step's ratio clip (kernels/test/bench_cuda.cc uses the same)


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


def make_model(a, seed=1, static_shapes=False):
    g = torch.Generator().manual_seed(seed)
    cfg = {"layers": a.L, "heads": a.H, "width": a.C, "layerNormEps": 1e-5}
    model = Nano(params(a.V, max(a.T, 2048), a.C, a.L, a.P, g), cfg, static_shapes)
    return model.to(a.device), g


def make_batch(a, g):
    """Random tokens and targets; 8 frame slots in every 40 positions (kernels/test/bench_cuda.cc)."""
    tok = torch.randint(0, a.V, (a.B, a.T), generator=g)
    slot = (torch.arange(a.T) % 40 < 8).expand(a.B, a.T)
    fr = torch.full((a.B, a.T), -1, dtype=torch.long)
    fr[slot] = torch.arange(int(slot.sum()))
    feats = torch.rand(int(slot.sum()), a.P, generator=g)
    tgt = torch.randint(0, a.V, (a.B, a.T), generator=g)
    adv = torch.randn(a.B, 1, generator=g).expand(a.B, a.T).contiguous()  # one advantage per sequence
    return [z.to(a.device) for z in (tok, fr, feats, tgt, adv)]


def token_logp(logits, tgt):
    return -F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1), reduction="none").view(tgt.shape)


def timed_steps(a, compile_mode, kinds):
    """Best SFT and/or RL step ("sft", "rl" in kinds) of one fresh model, eager or wrapped in
    torch.compile (both kinds share the compiled graph): one dict of milliseconds per kind."""
    compiled = compile_mode != "none"
    # Compiled: the mirror's frame slots as a select (one graph); eager: its masked write (cheaper).
    model, g = make_model(a, static_shapes=compiled)
    tok, fr, feats, tgt, adv = make_batch(a, g)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
    forward = model if not compiled else torch.compile(model, mode=None if compile_mode == "default" else compile_mode)

    def run(*args):
        if compiled:
            torch.compiler.cudagraph_mark_step_begin()  # each call is a new step for CUDA graph trees
        return forward(*args)

    def loss_of(kind):
        if kind == "sft":
            return F.cross_entropy(run(tok, fr, feats).view(-1, a.V), tgt.view(-1))
        with torch.no_grad():
            old = token_logp(run(tok, fr, feats), tgt)  # the rollout's log-probabilities
        ratio = torch.exp(token_logp(run(tok, fr, feats), tgt) - old)
        return torch.maximum(-adv * ratio, -adv * ratio.clamp(1 - CLIP_LOW, 1 + CLIP_HIGH)).mean()  # full mask

    warmup = 3 if compiled else 1  # compiled graphs warm up longer
    rows = []
    for kind in kinds:
        best, cpu_best = None, None
        for rep in range(a.reps + warmup):
            sync(a.device)
            c0 = time.process_time()
            t0 = time.perf_counter()
            loss = loss_of(kind)
            sync(a.device)
            t1 = time.perf_counter()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            sync(a.device)
            t2 = time.perf_counter()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sync(a.device)
            t3 = time.perf_counter()
            c3 = time.process_time()
            if rep >= warmup:
                if best is None or t3 - t0 < best[0]:
                    best = (t3 - t0, t1 - t0, t2 - t1, t3 - t2)
                cpu_best = min(cpu_best or 1e30, c3 - c0)
        rows.append({"measure": kind, "compile": compile_mode, "step_ms": best[0] * 1e3,
                     "forward_ms": best[1] * 1e3, "backward_ms": best[2] * 1e3, "update_ms": best[3] * 1e3,
                     "step_cpu_ms": cpu_best * 1e3, "tokens_per_s": a.B * a.T / best[0]})
    return rows


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


def timed_decode(a, batch):
    model, _ = make_model(a)
    prompt = [(i * 37) % a.V for i in range(a.prompt)]
    times, cpu = [], []
    for _ in range(a.reps + 1):
        sync(a.device)
        c0 = time.process_time()
        t0 = time.perf_counter()
        greedy_decode(model, prompt, a.decode, 2048, batch, a.device)
        sync(a.device)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    best = min(times[1:])
    return {"measure": "decode", "batch": batch, "decode_ms": best * 1e3, "decode_cpu_ms": min(cpu[1:]) * 1e3,
            "tokens_per_s": batch * (a.decode + 1) / best}


def emit(a, row):
    row = {"torch": torch.__version__, "threads": torch.get_num_threads(), "device": a.device,
           "matmul_precision": torch.get_float32_matmul_precision(), **row}
    print(json.dumps(row), flush=True)


def suite(a):
    """Measures of one config on the device. --compile none: eager SFT and RL steps and decoding at
    batch 1/8/64; otherwise the compiled SFT and RL steps, skipped when the deadline is near (a
    compile takes about a minute)."""
    if a.compile == "none":
        for row in timed_steps(a, "none", ("sft", "rl")):
            emit(a, row)
        if a.no_decode:
            return
        a.decode = a.decode or 128
        for batch in (1, 8, 64):
            emit(a, timed_decode(a, batch))
        return
    left = a.deadline - time.time() if a.deadline else 1e9
    if left < 90:
        emit(a, {"measure": "sft", "compile": a.compile, "skipped": f"{left:.0f} s before the deadline"})
        return
    for row in timed_steps(a, a.compile, ("sft", "rl")):
        emit(a, row)


def main():
    ap = argparse.ArgumentParser()
    for k, d in dict(B=8, T=384, V=1137, C=128, L=4, H=4, P=48, threads=2, reps=3, decode=0, prompt=32,
                     decode_batch=1).items():
        ap.add_argument(f"--{k.replace('_', '-')}", type=int, default=d, dest=k)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--compile", choices=["none", "default", "reduce-overhead", "max-autotune"], default="none")
    ap.add_argument("--rl", action="store_true", help="time the RL step instead of the SFT step")
    ap.add_argument("--suite", action="store_true", help="every measure of the config, one JSON line each")
    ap.add_argument("--deadline", type=float, default=0, help="Unix time after which --suite skips compiling")
    ap.add_argument("--no-decode", action="store_true", help="--suite without the decoding measures")
    # "medium" is the core's PARAVT_MATMUL_PRECISION=bf16 (cuBLAS CUBLAS_COMPUTE_32F_FAST_16BF),
    # "high" its tf32, "highest" (PyTorch's default) its fp32.
    ap.add_argument("--matmul-precision", choices=["highest", "high", "medium"], default="highest")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_float32_matmul_precision(a.matmul_precision)
    if a.suite:
        suite(a)
    elif a.decode > 0:
        emit(a, timed_decode(a, a.decode_batch))
    else:
        emit(a, timed_steps(a, a.compile, ("rl",) if a.rl else ("sft",))[0])


if __name__ == "__main__":
    main()
