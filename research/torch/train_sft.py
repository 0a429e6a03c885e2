"""ParaVT-nano SFT on one GPU (PyTorch): the same model, loss and data as `paravt nano train`.

The compute core in kernels/ is the reference and runs everywhere; this script is the fast path
for a lent GPU machine (an H100/H200 has PyTorch and no Node.js). It reads what
`gpu-sft.ts export` wrote (the trainer's own examples, frame targets, emphasis weights,
palette and digit tables), trains with the trainer's per-step augmentations (palette and digit
permutation, answer turn only, nano README "SFT trainer"), and writes model.safetensors in the
core's parameter layout, which `gpu-sft.ts import` turns into a checkpoint.

Model (nano README "Model config and parameter layout", kernels/src/model.cc): GPT-2 pre-norm
decoder, LayerNorm eps 1e-5, tanh GELU, learned positions, head tied to wte; a frame slot's input
is frame_w @ features + frame_b + wpe. Loss: sum(w * CE) / sum(w) over the masked positions
(model.cc). AdamW (0.9, 0.999, 1e-8, weight decay 0.01 on the layout's decayed tensors), global
gradient clip 1.0, cosine schedule with warm-up to lr/10 (train-sft.ts learningRate).

Before training it checks parity: the loss of the export's parity batch (4 examples, no
permutation) against the core's loss on the same batch, written by the export.

    python3 train_sft.py --data DIR --init DIR/model.safetensors --out OUTDIR --minutes 7 \
        [--batch 32] [--lr 6e-4] [--permute-palette 0.5] [--permute-digits 0.5] [--repeat when=4]
"""

import argparse
import json
import math
import os
import queue
import threading
import time

import numpy as np
import torch
import torch.nn.functional as F

from nano_data import TIME_TOKENS, Data, read_safetensors, write_safetensors

DECAYED = {"wte", "wpe", "frame_w", "qkv_w", "attn_proj_w", "fc_w", "fc_proj_w"}


class Nano(torch.nn.Module):
    def __init__(self, named, cfg, static_shapes=False):
        super().__init__()
        self.static_shapes = static_shapes
        self.order = [n for n, _ in named]
        self.p = torch.nn.ParameterDict({n: torch.nn.Parameter(t) for n, t in named})
        self.L, self.H, self.C = cfg["layers"], cfg["heads"], cfg["width"]
        self.eps = cfg["layerNormEps"]

    def forward(self, tok, fr, feats):
        p, C, H = self.p, self.C, self.H
        B, T = tok.shape
        slot = fr >= 0
        x = p["wte"][tok.clamp(min=0)]
        if self.static_shapes and feats.shape[0] > 0:
            # For torch.compile (bench/kernels): no data-dependent shape, so one graph. Projects
            # every row of feats (the benchmark passes exactly its slots' rows), then selects.
            proj = feats @ p["frame_w"].t() + p["frame_b"]
            x = torch.where(slot.unsqueeze(-1), proj[fr.clamp(min=0)], x)
        elif slot.any():
            proj = feats[fr[slot]] @ p["frame_w"].t() + p["frame_b"]
            x = x.clone()
            x[slot] = proj
        x = x + p["wpe"][:T]
        for l in range(self.L):
            h = F.layer_norm(x, (C,), p["ln1_w"][l], p["ln1_b"][l], self.eps)
            qkv = h @ p["qkv_w"][l].t() + p["qkv_b"][l]
            q, k, v = qkv.split(C, dim=-1)
            q, k, v = (z.view(B, T, H, C // H).transpose(1, 2) for z in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            y = y.transpose(1, 2).reshape(B, T, C)
            x = x + y @ p["attn_proj_w"][l].t() + p["attn_proj_b"][l]
            h = F.layer_norm(x, (C,), p["ln2_w"][l], p["ln2_b"][l], self.eps)
            h = F.gelu(h @ p["fc_w"][l].t() + p["fc_b"][l], approximate="tanh")
            x = x + h @ p["fc_proj_w"][l].t() + p["fc_proj_b"][l]
        x = F.layer_norm(x, (C,), p["lnf_w"], p["lnf_b"], self.eps)
        return x @ p["wte"].t()


def grow_time_tokens(model, data, seed):
    """Switches `data` to time tokens and appends their wte rows: N(0, s²) with s the trained rows' std
    (fresh, distinct rows: a copy needs tokens told apart, not an ordering)."""
    if data.colon is None:
        raise SystemExit("--time-tokens needs an export with timeColon in meta.json")
    wte = model.p["wte"].data
    if wte.shape[0] == data.V:
        g = torch.Generator().manual_seed(seed)
        rows = torch.randn(TIME_TOKENS, wte.shape[1], generator=g) * float(wte.std())
        model.p["wte"] = torch.nn.Parameter(torch.cat([wte, rows.to(wte.device)]))
    data.time_tokens = True


def probe_arguments(ap):
    """The arguments every teacher-forced probe (key_digits.py, letter_probe.py) takes."""
    ap.add_argument("--data", required=True)
    ap.add_argument("--init", required=True)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--time-tokens", action="store_true", help="a model trained with train_sft.py --time-tokens")


def load_probe(args):
    """(data, model in eval mode, frame features) for a probe's parsed probe_arguments."""
    data = Data(args.data)
    model = Nano([(n, torch.from_numpy(a)) for n, a in read_safetensors(args.init)[0]], data.meta["model"]).eval()
    data.time_tokens = args.time_tokens
    return data, model, torch.from_numpy(data.features())


def learning_rate(lr, warm, step, total):
    if step <= warm:
        return lr * step / warm
    lo = lr / 10
    prog = min(1.0, (step - warm) / max(1, total - warm))
    return lo + 0.5 * (lr - lo) * (1 + math.cos(math.pi * prog))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--init", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=7.0)
    ap.add_argument("--steps", type=int, default=0, help="fixed step count (0: fill --minutes)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=6e-4)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--batches", default="",
                    help="a JSON file of batches, each a list of example ids (meta.json exampleIds), trained in "
                         "this order, one a step, instead of random draws (bench/nano/trainer.ts: the core's "
                         "batches); the file's batches set the batch size and the examples, not --batch, --kinds "
                         "or --repeat")
    ap.add_argument("--permute-palette", type=float, default=0.5)
    ap.add_argument("--permute-digits", type=float, default=0.5)
    ap.add_argument("--shift-times", type=float, default=0.0,
                    help="probability that a `when` main-agent example's response and answer times move by one random offset")
    ap.add_argument("--drill", type=int, default=1, help="draws of each when-drill example (kind 2) per epoch; 0: none")
    ap.add_argument("--letter-drill", type=int, default=1,
                    help="draws of each letter-drill example (kind 3) per epoch; 0: none")
    ap.add_argument("--letter-weight", type=float, default=1.0,
                    help="loss weight of a letter drill's trained tokens (the letter, the end of the thinking, the answer tag)")
    ap.add_argument("--letter-short", type=float, default=0.0,
                    help="share of letter-drill examples cut to their prompt and answer turn (nano_data cut_middle)")
    ap.add_argument("--kinds", default="0,1,2,3",
                    help="example kinds drawn (0 main agent, 1 sub-agent, 2 when drill, 3 letter drill), e.g. 3 for a letter-only run")
    ap.add_argument("--repeat", default="", help="template=N,… (e.g. when=4): main-agent examples drawn N times")
    ap.add_argument("--repeat-rounds", type=int, default=1,
                    help="main-agent examples and when/scene drills of two or more tool rounds drawn R times as often")
    ap.add_argument("--time-tokens", action="store_true",
                    help="experiment: each MM:SS below 10:00 as one new token (nano README \"Word order and time tokens\"); wte grows by 600 rows")
    ap.add_argument("--spell-sub-agent-times", action="store_true",
                    help="with --time-tokens: sub-agent summaries keep MM:SS as digits (only their assistant tokens)")
    ap.add_argument("--continue-from", default="",
                    help="model.safetensors to train from after the parity check of --init (e.g. a --time-tokens model)")
    ap.add_argument("--snapshots", default="0.25,0.5,0.75", help="fractions of the run that also save a model")
    args = ap.parse_args()
    if args.time_tokens and args.permute_digits > 0:
        # A permuted "0" would leave a time's digits uncollapsed (as trainSft refuses permuteDigits with time pieces).
        raise SystemExit("--permute-digits needs digits that stay digits: use 0 with --time-tokens")
    if args.spell_sub_agent_times and not args.time_tokens:
        raise SystemExit("--spell-sub-agent-times needs --time-tokens")
    print(f"args: {vars(args)}", flush=True)
    t_start = time.time()
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(args.seed)
    data = Data(args.data)
    named = [(n, torch.from_numpy(a)) for n, a in read_safetensors(args.init)[0]]
    # A version-2 init (wte has TIME_TOKENS more rows, e.g. the default checkpoint since tokenizer
    # version 2): the export's ids and parity loss are those of its version-1 part, the first V rows
    # (gpu-export.ts versionOnePart); the whole model trains after the check, with --time-tokens.
    grown_init = dict(named)["wte"].shape[0] == data.V + TIME_TOKENS
    if grown_init and not args.time_tokens:
        raise SystemExit(f"{args.init} has {TIME_TOKENS} time-token rows (tokenizer version 2): add --time-tokens")
    whole_init = named
    if grown_init:
        named = [(n, a[: data.V] if n == "wte" else a) for n, a in named]
    model = Nano(named, data.meta["model"]).to(dev)
    feats = torch.from_numpy(data.features()).to(dev)
    print(f"data: {len(data.table)} examples, {len(data.ids)} tokens, {len(data.frames)} frames; "
          f"loaded in {time.time() - t_start:.1f} s on {dev} ({torch.cuda.get_device_name() if dev.type == 'cuda' else 'cpu'})",
          flush=True)

    # Parity with the core (full fp32).
    torch.backends.cuda.matmul.allow_tf32 = False
    par = data.meta["parity"]
    tok, tgt, w, fr, *_ = (torch.from_numpy(v).to(dev) for v in data.batch(par["examples"], np.random.default_rng(0), 0, 0, plain=True))
    with torch.no_grad():
        logits = model(tok, fr, feats)
        ce = F.cross_entropy(logits.view(-1, data.V), tgt.view(-1), reduction="none").view(tgt.shape)
        loss0 = float((ce * w).sum() / w.sum())
    rel = abs(loss0 - par["loss"]) / abs(par["loss"])
    print(f"parity: torch loss {loss0:.6f}, core loss {par['loss']:.6f}, relative difference {rel:.2e} "
          f"({'OK' if rel < 1e-4 else 'MISMATCH'})", flush=True)
    if rel >= 1e-3:
        raise SystemExit("parity failed: the torch model is not the core's model; not training")
    torch.backends.cuda.matmul.allow_tf32 = True
    if args.continue_from:
        # The parity check above tested this torch model against the core with the export's --init;
        # another model (e.g. a snapshot of a --time-tokens run) comes in here.
        model = Nano([(n, torch.from_numpy(a)) for n, a in read_safetensors(args.continue_from)[0]], data.meta["model"]).to(dev)
        print(f"continuing from {args.continue_from}", flush=True)
    elif grown_init:
        model = Nano(whole_init, data.meta["model"]).to(dev)
    if args.time_tokens:
        grow_time_tokens(model, data, args.seed)
        data.spell_sub_agents = args.spell_sub_agent_times

    data.letter_weight = args.letter_weight
    data.letter_short = args.letter_short
    # Examples to draw: every example once, main-agent examples of --repeat templates N times,
    # multi-round trajectories --repeat-rounds times as often again (Data.draw_pool).
    reps = dict((kv.split("=")[0], int(kv.split("=")[1])) for kv in args.repeat.split(",") if kv)
    kinds = {int(k) for k in args.kinds.split(",")}
    pool = data.draw_pool(kinds, reps, args.drill, args.letter_drill, args.repeat_rounds)
    if len(pool) < args.batch:  # the producers below would never fill a batch: say so instead of waiting
        raise SystemExit(f"{len(pool)} examples to draw, fewer than --batch {args.batch}")
    q = queue.Queue(maxsize=8)

    def producer(k):
        # Each thread its own generator (a numpy Generator is not thread-safe) and its own epochs.
        rng = np.random.default_rng([args.seed, k])
        while True:
            order = rng.permutation(pool)
            for i in range(0, len(order) - args.batch + 1, args.batch):
                q.put(data.batch(order[i : i + args.batch], rng, args.permute_palette, args.permute_digits,
                                 p_shift=args.shift_times))

    def listed(batches):
        # The given batches in their order, assembled off the step's thread like the draws above.
        rng = np.random.default_rng([args.seed, 0])
        for xs in batches:
            q.put(data.batch(xs, rng, args.permute_palette, args.permute_digits, p_shift=args.shift_times))

    if args.batches:
        if "exampleIds" not in data.meta:
            raise SystemExit(f"--batches: {args.data}/meta.json lists no exampleIds (an export older than "
                             "--batches): export again with research/torch/gpu-sft.ts")
        index = {x: i for i, x in enumerate(data.meta["exampleIds"])}
        listed_ids = json.load(open(args.batches))
        unknown = sorted({x for b in listed_ids for x in b if x not in index})
        if unknown:
            raise SystemExit(f"--batches names {len(unknown)} examples this export lacks, e.g. {unknown[0]}")
        batches = [[index[x] for x in b] for b in listed_ids]
        if args.steps > len(batches) or not args.steps:
            raise SystemExit(f"--batches lists {len(batches)} batches: give --steps of at most that many")
        threading.Thread(target=listed, args=(batches,), daemon=True).start()
    else:
        for k in range(3):  # numpy releases the GIL in most of the assembly
            threading.Thread(target=producer, args=(k,), daemon=True).start()

    decay = [p for n, p in model.p.items() if n in DECAYED]
    rest = [p for n, p in model.p.items() if n not in DECAYED]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}],
        lr=args.lr, betas=(0.9, 0.999), eps=1e-8, fused=dev.type == "cuda",
    )
    os.makedirs(args.out, exist_ok=True)
    total = args.steps or 10**9
    budget = args.minutes * 60 - (time.time() - t_start)
    snaps = sorted(float(s) for s in args.snapshots.split(",") if s)
    saved = set()
    acc = {"loss": 0.0, "n": 0, "pal": [0, 0], "dig": [0, 0], "key": [0, 0], "tok": [0, 0]}
    t0 = time.time()
    step = 0

    def save(tag):
        path = os.path.join(args.out, f"model-{tag}.safetensors")
        write_safetensors(path, [(n, model.p[n]) for n in model.order],
                          {"step": step, "dataset": data.meta["datasetHash"], "trainer": "research/torch/train_sft.py"})
        print(f"saved {path}", flush=True)

    timed = {"tokens": 0, "since": None}  # throughput over steps 3.. (after warm-up)
    while step < total:
        tok, tgt, w, fr, cp, cd, ck = (torch.from_numpy(v).to(dev, non_blocking=True) for v in q.get())
        step += 1
        if step == 3:
            timed["since"] = time.time()
        if step >= 3:
            timed["tokens"] += int((tok != data.pad).sum())
        lr = learning_rate(args.lr, args.warmup, step, total if args.steps or step > 50 else 10**9)
        for g in opt.param_groups:
            g["lr"] = lr
        logits = model(tok, fr, feats)
        ce = F.cross_entropy(logits.view(-1, logits.shape[-1]), tgt.view(-1), reduction="none").view(tgt.shape)
        loss = (ce * w).sum() / w.sum()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if not torch.isfinite(loss):
            raise SystemExit(f"step {step}: loss {float(loss)} (grad norm {float(gnorm)})")
        with torch.no_grad():
            hit = logits.argmax(-1) == tgt
            acc["loss"] += float(loss)
            acc["n"] += 1
            for key, m in (("pal", cp), ("dig", cd), ("key", ck), ("tok", w > 0)):
                acc[key][0] += int((hit & m).sum())
                acc[key][1] += int(m.sum())
        if step == 50 and not args.steps:
            per = (time.time() - t0) / 50
            total = int(budget / per * 0.97)  # the cosine schedule spans what the budget allows
            print(f"{per * 1000:.1f} ms/step -> {total} steps in {budget:.0f} s", flush=True)
        if step % 200 == 0 or step == total:
            r = lambda k: f"{acc[k][0] / acc[k][1]:.3f}" if acc[k][1] else "-"
            print(f"step {step}/{total} loss {acc['loss'] / acc['n']:.4f} acc {r('tok')} palette-copy {r('pal')} "
                  f"digit-copy {r('dig')} key-digits {r('key')} lr {lr:.2e} {time.time() - t_start:.0f} s", flush=True)
            acc = {"loss": 0.0, "n": 0, "pal": [0, 0], "dig": [0, 0], "key": [0, 0], "tok": [0, 0]}
        for s in snaps:
            if s not in saved and step >= s * total and total < 10**9:
                saved.add(s)
                save(str(step))
    if dev.type == "cuda":
        torch.cuda.synchronize()
    if timed["since"] is not None and step > 3:
        print(f"throughput: {timed['tokens'] / (time.time() - timed['since']):.0f} tokens/s over steps 3-{step} "
              f"(inputs, padding excluded)", flush=True)
    save("final")
    print(f"done: {step} steps in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
