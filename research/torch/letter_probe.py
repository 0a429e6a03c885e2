"""Teacher-forced accuracy of a model on the letter of `scene_color` and `order` answers: given a
last turn that names the right option text ("so its color is white:" / "so the red square came
first:"), is the next letter that text's letter in the question? It measures the lookup a letter
drill (gpu-export.ts, kind 3) trains, without the noise of free-running episodes; run it on the
letter drill of an export the model did not train on (another --letter-drill-seed).

    python3 letter_probe.py --data DIR --init MODEL.safetensors [--limit 600] [--palette 0] [--short] --time-tokens

--palette 1 permutes the palette words of every example first (the options and the named text
together, so the right letter stays). Prints the accuracy per template, and the share of the
predicted letters that are A-D at all.
"""

import argparse

import numpy as np
import torch

from train_sft import load_probe, probe_arguments

LETTER_KIND = 3


def main():
    ap = argparse.ArgumentParser()
    probe_arguments(ap)
    ap.add_argument("--limit", type=int, default=600)
    ap.add_argument("--palette", type=float, default=0.0)
    ap.add_argument("--short", action="store_true", help="cut each example to its prompt and answer turn (train_sft.py --letter-short)")
    args = ap.parse_args()
    data, model, feats = load_probe(args)
    data.letter_short = 1.0 if args.short else 0.0
    drill = [x for x, r in enumerate(data.table) if r[2] == LETTER_KIND]
    if not drill:
        raise SystemExit(f"{args.data} has no letter drill (gpu-sft.ts export --letter-drill-videos N)")
    rows = drill[: args.limit]
    templates = data.meta["templates"]
    # The ids of " A" .. " D": the letters the whole drill writes.
    letters = {int(data.ids[data.table[x][0] + data.table[x][3]]) for x in drill}
    rng = np.random.default_rng(0)
    hits, total, valid = {}, {}, 0
    for i in range(0, len(rows), args.batch):
        chunk = rows[i : i + args.batch]
        tok, tgt, w, fr = data.batch(chunk, rng, args.palette, 0)[:4]
        with torch.no_grad():
            pred = model(torch.from_numpy(tok), torch.from_numpy(fr), feats).argmax(-1).numpy()
        for b, x in enumerate(chunk):
            at = int(np.argmax(w[b] > 0))  # a letter drill's first trained target is its letter
            name = templates[data.table[x][6]]
            hits[name] = hits.get(name, 0) + int(pred[b, at] == tgt[b, at])
            total[name] = total.get(name, 0) + 1
            valid += int(pred[b, at]) in letters
    per = ", ".join(f"{t} {hits[t]}/{total[t]} = {hits[t] / total[t]:.3f}" for t in sorted(total))
    n = sum(total.values())
    print(f"{n} letter-drill examples (palette {args.palette}): letter right {sum(hits.values()) / n:.3f} ({per}); "
          f"a letter A-D {valid / n:.3f}")


if __name__ == "__main__":
    main()
