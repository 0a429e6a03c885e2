"""Prints the device check's tables (kernels/scripts/device-check.sh) from its JSON lines: one line
per measure, each tagged with its config. The CUDA core's lines ("engine": "cuda core") carry its
SFT step, RL step and decoding, one per matmul path ("matmul": cuBLAS or the own kernels, and the
precision: fp32 or bf16); the PyTorch lines (bench/kernels/torch_step.py --suite) one measure each
("measure": sft | rl | decode; "compile": none | reduce-overhead; "matmul_precision": highest |
medium).

Ratios are CUDA core / PyTorch (above 1: the core is faster). MFU = 6 * params * tokens/s over a
peak: fp32 runs against the fp32 (non-tensor-core) 67 TFLOP/s of an H100/H200 SXM, bf16 runs against
the dense bf16 tensor-core 989 TFLOP/s (NVIDIA's datasheet).

    python3 kernels/scripts/device_table.py bench.jsonl parity.log
"""

import json
import re
import sys
from collections import OrderedDict

PEAK = {"fp32": 67e12, "bf16": 989e12}


def fmt(x, digits=0):
    return "—" if x is None else f"{x:,.{digits}f}"


def ratio(a, b):
    return fmt(a / b, 2) if a and b else "—"


def core_kind(row):
    own = row.get("matmul", "").startswith("own")
    bf16 = "bf16" in row.get("matmul", "")
    return ("own" if own else "core") + ("-bf16" if bf16 else "")


def load(path):
    configs = OrderedDict()
    for line in open(path):
        if not line.strip():
            continue
        row = json.loads(line)
        c = configs.setdefault(row["config"], {"torch": {}})
        if row.get("engine") == "cuda core":
            c[core_kind(row)] = row
        elif "skipped" in row:
            continue
        else:
            prec = row.get("matmul_precision", "highest")
            detail = str(row["batch"]) if row["measure"] == "decode" else row.get("compile")
            c["torch"][(row["measure"], detail, prec)] = row
    for c in configs.values():  # a machine without cuBLAS: the own kernels are the core
        c.setdefault("core", c.get("own"))
        c.setdefault("core-bf16", c.get("own-bf16"))
    return configs


def get(row, key):
    return (row or {}).get(key)


def main():
    configs = load(sys.argv[1])
    parity = open(sys.argv[2]).read() if len(sys.argv) > 2 else ""
    summary = re.search(r"test_cuda: (\d+) checks, (\d+) failures", parity)
    first = next((c["core"] for c in configs.values() if c.get("core")), {})
    print(f"Device: {first.get('device', '?')}; core matmul: {first.get('matmul', '?')}. Parity: "
          + (f"{summary.group(1)} checks, {summary.group(2)} failures" if summary else "did not finish"))
    print()
    print("fp32 (PyTorch's default precision, \"highest\"):")
    print()
    print("| config | params | SFT tok/s core | own matmul | eager | compiled | core/eager | core/compiled | MFU (fp32) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, c in configs.items():
        core, t = c.get("core"), c["torch"]
        k = get(core, "tokens_per_s")
        own = get(c.get("own"), "tokens_per_s") if c.get("own") is not core else None
        e = get(t.get(("sft", "none", "highest")), "tokens_per_s")
        p = get(t.get(("sft", "reduce-overhead", "highest")), "tokens_per_s")
        mfu = f"{6 * core['params'] * k / PEAK['fp32'] * 100:.1f}%" if core else "—"
        params = f"{core['params'] / 1e6:.1f} M" if core else "—"
        print(f"| {name} | {params} | {fmt(k)} | {fmt(own)} | {fmt(e)} | {fmt(p)} | {ratio(k, e)} | {ratio(k, p)} | {mfu} |")
    print()
    print("| config | RL step ms core | eager | compiled | core/eager (speed) | core/compiled |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, c in configs.items():
        t = c["torch"]
        k = get(c.get("core"), "rl_step_ms")
        e = get(t.get(("rl", "none", "highest")), "step_ms")
        p = get(t.get(("rl", "reduce-overhead", "highest")), "step_ms")
        print(f"| {name} | {fmt(k, 1)} | {fmt(e, 1)} | {fmt(p, 1)} | {ratio(e, k)} | {ratio(p, k)} |")
    print()
    print("bf16 mixed precision (core PARAVT_MATMUL_PRECISION=bf16; PyTorch set_float32_matmul_precision(\"medium\"), eager):")
    print()
    print("| config | SFT tok/s core | eager | core/eager | RL step ms core | eager | core/eager (speed) | MFU (bf16) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, c in configs.items():
        core, t = c.get("core-bf16"), c["torch"]
        k = get(core, "tokens_per_s")
        e = get(t.get(("sft", "none", "medium")), "tokens_per_s")
        kr = get(core, "rl_step_ms")
        er = get(t.get(("rl", "none", "medium")), "step_ms")
        mfu = f"{6 * core['params'] * k / PEAK['bf16'] * 100:.1f}%" if core else "—"
        print(f"| {name} | {fmt(k)} | {fmt(e)} | {ratio(k, e)} | {fmt(kr, 1)} | {fmt(er, 1)} | {ratio(er, kr)} | {mfu} |")
    print()
    print("| config | decode tok/s b=1 core / torch | b=8 core / torch | b=64 core / torch |")
    print("| --- | ---: | ---: | ---: |")
    for name, c in configs.items():
        dec = get(c.get("core"), "decode") or {}
        cells = []
        for b in ("1", "8", "64"):
            cells.append(f"{fmt(dec.get(b))} / {fmt(get(c['torch'].get(('decode', b, 'highest')), 'tokens_per_s'))}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("Step breakdown (ms, forward / backward / update):")
    for name, c in configs.items():
        parts = []
        for label, row in (("core", c.get("core")), ("core bf16", c.get("core-bf16")),
                           ("eager", c["torch"].get(("sft", "none", "highest"))),
                           ("compiled", c["torch"].get(("sft", "reduce-overhead", "highest")))):
            if row:
                parts.append(f"{label} {row['forward_ms']:.1f} / {row['backward_ms']:.1f} / {row['update_ms']:.1f}")
        print(f"- {name}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
