"""Prints the device check's table (kernels/scripts/device-check.sh) from its JSON lines.

Ratios are CUDA core / PyTorch (above 1: the core is faster). MFU = 6 * params * tokens/s over
the fp32 (non-tensor-core) peak of an H100/H200 SXM, 67 TFLOP/s (NVIDIA's datasheet): the core
trains in fp32 without TF32.
"""

import json
import re
import sys

FP32_PEAK = 67e12


def fmt(x, digits=0):
    return "—" if x is None else f"{x:,.{digits}f}"


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    parity = open(sys.argv[2]).read() if len(sys.argv) > 2 else ""
    summary = re.search(r"test_cuda: (\d+) checks, (\d+) failures", parity)
    device = next((r["core"]["device"] for r in rows if r.get("core")), "?")
    print(f"Device: {device}. Parity: " + (f"{summary.group(1)} checks, {summary.group(2)} failures" if summary else "did not finish"))
    print()
    print("| config | params | core tok/s | eager tok/s | compile tok/s | core/eager | core/compile | MFU (fp32) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        core, eager, comp = r.get("core"), r.get("eager"), r.get("compiled")
        c = core and core["tokens_per_s"]
        e = eager and eager["tokens_per_s"]
        k = comp and comp["tokens_per_s"]
        mfu = core and 6 * core["params"] * core["tokens_per_s"] / FP32_PEAK
        params = f"{core['params'] / 1e6:.1f} M" if core else "—"
        mfu_cell = f"{mfu * 100:.1f}%" if mfu else "—"
        print(f"| {r['config']} | {params} | {fmt(c)} | {fmt(e)} | {fmt(k)} | "
              f"{fmt(c / e if c and e else None, 2)} | {fmt(c / k if c and k else None, 2)} | {mfu_cell} |")
    print()
    print("| config | decode b=1 core / torch | b=8 core / torch | b=64 core / torch (tok/s) |")
    print("| --- | ---: | ---: | ---: |")
    for r in rows:
        core = (r.get("core") or {}).get("decode", {})
        torch = r.get("torch_decode") or {}
        cells = []
        for b in ("1", "8", "64"):
            t = torch.get(b) or {}
            cells.append(f"{fmt(core.get(b))} / {fmt(t.get('tokens_per_s'))}")
        print(f"| {r['config']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
