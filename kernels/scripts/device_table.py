"""Prints the device check's tables (kernels/scripts/device-check.sh) from its JSON lines: one line
per measure, each tagged with its config; the CUDA core's line ("engine": "cuda core") carries its
SFT step, RL step and decoding, the PyTorch lines (bench/kernels/torch_step.py --suite) one measure
each ("measure": sft | rl | decode; "compile": none | reduce-overhead).

Ratios are CUDA core / PyTorch (above 1: the core is faster). MFU = 6 * params * tokens/s over the
fp32 (non-tensor-core) peak of an H100/H200 SXM, 67 TFLOP/s (NVIDIA's datasheet): the core trains
in fp32 without TF32.

    python3 kernels/scripts/device_table.py bench.jsonl parity.log
"""

import json
import re
import sys
from collections import OrderedDict

FP32_PEAK = 67e12


def fmt(x, digits=0):
    return "—" if x is None else f"{x:,.{digits}f}"


def ratio(a, b):
    return fmt(a / b, 2) if a and b else "—"


def load(path):
    configs = OrderedDict()
    for line in open(path):
        if not line.strip():
            continue
        row = json.loads(line)
        c = configs.setdefault(row["config"], {"core": None, "own": None, "torch": {}})
        if row.get("engine") == "cuda core" and row.get("matmul", "").startswith("own"):
            c["own"] = row
        elif row.get("engine") == "cuda core":
            c["core"] = row
        elif "skipped" in row:
            c["torch"][(row["measure"], row["compile"])] = None
        else:
            key = (row["measure"], row.get("compile") if row["measure"] != "decode" else str(row["batch"]))
            c["torch"][key] = row
    return configs


def main():
    configs = load(sys.argv[1])
    parity = open(sys.argv[2]).read() if len(sys.argv) > 2 else ""
    summary = re.search(r"test_cuda: (\d+) checks, (\d+) failures", parity)
    for c in configs.values():  # a machine without cuBLAS: the own kernel is the core
        c["core"] = c["core"] or c["own"]
    device = next((c["core"]["device"] for c in configs.values() if c["core"]), "?")
    matmul = next((c["core"].get("matmul", "?") for c in configs.values() if c["core"]), "?")
    print(f"Device: {device}; core matmul: {matmul}. Parity: "
          + (f"{summary.group(1)} checks, {summary.group(2)} failures" if summary else "did not finish"))
    print()
    print("| config | params | SFT tok/s core | own matmul | eager | compiled | core/eager | core/compiled | MFU (fp32) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, c in configs.items():
        core, t = c["core"], c["torch"]
        own = c["own"]["tokens_per_s"] if c["own"] and c["own"] is not core else None
        k = core and core["tokens_per_s"]
        e = (t.get(("sft", "none")) or {}).get("tokens_per_s")
        p = (t.get(("sft", "reduce-overhead")) or {}).get("tokens_per_s")
        mfu = f"{6 * core['params'] * k / FP32_PEAK * 100:.1f}%" if core else "—"
        params = f"{core['params'] / 1e6:.1f} M" if core else "—"
        print(f"| {name} | {params} | {fmt(k)} | {fmt(own)} | {fmt(e)} | {fmt(p)} | {ratio(k, e)} | {ratio(k, p)} | {mfu} |")
    print()
    print("| config | RL step ms core | eager | compiled | core/eager (speed) | core/compiled |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, c in configs.items():
        core, t = c["core"], c["torch"]
        k = core and core.get("rl_step_ms")
        e = (t.get(("rl", "none")) or {}).get("step_ms")
        p = (t.get(("rl", "reduce-overhead")) or {}).get("step_ms")
        print(f"| {name} | {fmt(k, 1)} | {fmt(e, 1)} | {fmt(p, 1)} | {ratio(e, k)} | {ratio(p, k)} |")
    print()
    print("| config | decode tok/s b=1 core / torch | b=8 core / torch | b=64 core / torch |")
    print("| --- | ---: | ---: | ---: |")
    for name, c in configs.items():
        core = (c["core"] or {}).get("decode", {})
        cells = []
        for b in ("1", "8", "64"):
            t = c["torch"].get(("decode", b)) or {}
            cells.append(f"{fmt(core.get(b))} / {fmt(t.get('tokens_per_s'))}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("Step breakdown (ms, forward / backward / update):")
    for name, c in configs.items():
        parts = []
        if c["core"]:
            parts.append("core {forward_ms:.1f} / {backward_ms:.1f} / {update_ms:.1f}".format(**c["core"]))
        for mode in ("none", "reduce-overhead"):
            r = c["torch"].get(("sft", mode))
            if r:
                parts.append(("eager" if mode == "none" else "compiled") + " {forward_ms:.1f} / {backward_ms:.1f} / {update_ms:.1f}".format(**r))
        print(f"- {name}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
