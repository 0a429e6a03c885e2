"""Teacher-forced accuracy of a model on the key digits of `when` answers: the first MM:SS an answer
turn writes (minutes and seconds digits), which only the target's sentence in the tool responses
holds. It measures the retrieval a `when` answer needs without the noise of free-running episodes.

    python3 key_digits.py --data DIR --init MODEL.safetensors [--kind 2] [--limit 300] [--shift 0]

--kind 0: the rendered suite's `when` examples, 2: the when drill's (gpu-export.ts); --shift 1
moves every example's response and answer times by one random offset first (then priors cannot
help). Prints the accuracy per digit position and over all four.
"""

import argparse

import numpy as np
import torch

from train_sft import load_probe, probe_arguments


def main():
    ap = argparse.ArgumentParser()
    probe_arguments(ap)
    ap.add_argument("--kind", type=int, default=2)
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--shift", type=float, default=0.0)
    args = ap.parse_args()
    data, model, feats = load_probe(args)
    rows = [x for x, r in enumerate(data.table) if r[2] == args.kind and r[6] == data.when][: args.limit]
    rng = np.random.default_rng(0)
    hits, total = np.zeros(4), np.zeros(4)
    exact, n_ex = 0, 0  # the whole first time right (all four digits, or the one time token)
    for i in range(0, len(rows), args.batch):
        tok, tgt, w, fr, _, _, key = data.batch(rows[i : i + args.batch], rng, 0, 0, p_shift=args.shift)
        with torch.no_grad():
            pred = model(torch.from_numpy(tok), torch.from_numpy(fr), feats).argmax(-1).numpy()
        for b in range(len(tok)):
            at = np.nonzero(key[b])[0]
            if len(at) == 4:
                hits += pred[b, at] == tgt[b, at]
                total += 1
            if len(at) in (1, 4):
                exact += int((pred[b, at] == tgt[b, at]).all())
                n_ex += 1
    digits = (f"M {hits[0] / total[0]:.3f} M {hits[1] / total[1]:.3f} S {hits[2] / total[2]:.3f} S {hits[3] / total[3]:.3f} "
              f"all {hits.sum() / total.sum():.3f}, " if total[0] else "")
    print(f"{len(rows)} examples (kind {args.kind}, shift {args.shift}): key digits {digits}"
          f"first time exact {exact / max(1, n_ex):.3f} (n {n_ex})")


if __name__ == "__main__":
    main()
