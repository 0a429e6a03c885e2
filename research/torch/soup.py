"""Uniform weight average ("model soup") of models fine-tuned from one start: same tensor names
and shapes, each tensor the mean of the inputs'. Runs on CPU in a second.

    python3 soup.py --out SOUP.safetensors A.safetensors B.safetensors [...]

The inputs are train_sft.py outputs or nano checkpoints' model.safetensors (the same layout);
the output is a train_sft.py-style file for `gpu-sft.ts import` (metadata: step = the largest
input step, the dataset fingerprint of the first input that has one, trainer
research/torch/soup.py, the inputs' paths).
"""

import argparse

import numpy as np

from nano_data import read_safetensors, write_safetensors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    if len(args.models) < 2:
        raise SystemExit("soup.py: give at least two models")
    loaded = [read_safetensors(p) for p in args.models]
    first, _ = loaded[0]
    for path, (named, _) in zip(args.models[1:], loaded[1:]):
        if [(n, a.shape) for n, a in named] != [(n, a.shape) for n, a in first]:
            raise SystemExit(f"soup.py: {path} has other tensors or shapes than {args.models[0]}")
    mean = [(n, np.mean([named[i][1] for named, _ in loaded], axis=0, dtype=np.float64).astype(np.float32))
            for i, (n, _) in enumerate(first)]
    step = max(int(meta.get("step", 0)) for _, meta in loaded)
    # gpu-sft.ts import records a dataset fingerprint; a soup keeps its first train_sft.py input's.
    dataset = next((meta["dataset"] for _, meta in loaded if "dataset" in meta), None)
    if dataset is None:
        raise SystemExit("soup.py: no input was written by train_sft.py (no dataset fingerprint)")
    write_safetensors(args.out, mean, {"step": step, "dataset": dataset, "trainer": "research/torch/soup.py",
                                       "inputs": " ".join(args.models)})
    print(f"wrote {args.out}: mean of {len(args.models)} models, {sum(a.size for _, a in mean)} parameters")


if __name__ == "__main__":
    main()
