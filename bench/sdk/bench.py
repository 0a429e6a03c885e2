"""The Python SDK's cost to a trainer and its upload rate, against the baseline a user would
otherwise pick: writing the same points as ingestion JSON Lines (json.dumps per step) for
`npx paravt ingest --follow` to upload. Run by bench/sdk/run.mjs against a real workbench.

Per repetition, the same run of STEPS steps x METRICS values:
  sdk            run.log() per step, then finish(); the trainer-side cost of each log() call, and
                 the wall time from the first log() to finish() returning with every batch
                 acknowledged (points/s end to end).
  jsonl          json.dumps + write per step (a buffered file); the trainer-side cost per step.
  jsonl+flush    the same with flush() per line (what `--follow` needs to see a step at once).
  cli upload     `npx paravt ingest <file>` of the written file: wall time, points/s.
Every upload is checked: each run must hold STEPS points of each metric afterwards.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import paravt_workbench as pvt

NAMES = [
    "reward_mean",
    "reward_std",
    "kl",
    "entropy",
    "format_compliance",
    "tool_call_rate",
    "accuracy_k16",
    "accuracy_k64",
    "grad_norm",
    "lr",
]


def values_of(step: int) -> dict:
    # Plain floats of a trainer's kind (not round numbers: they cost json.dumps what real ones do).
    x = step + 1
    return {n: math.sin(x * (i + 1)) * 0.5 + 0.5 + 1.0 / x for i, n in enumerate(NAMES)}


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


def summary_us(ns):
    us = [n / 1000 for n in ns]
    return {"p50": pct(us, 50), "p99": pct(us, 99), "mean": statistics.fmean(us), "max": max(us)}


def api_get(url, token, path):
    req = urllib.request.Request(f"{url}/api/v1{path}", headers={"authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.load(res)


def check_points(args, run_id):
    names = api_get(args.url, args.token, f"/projects/{args.project}/runs/{run_id}/metric-names")
    counts = {m["name"]: m["count"] for m in names}
    expected = {n: args.steps for n in NAMES}
    if counts != expected:
        raise SystemExit(f"run {run_id}: expected {expected}, found {counts}")


def bench_sdk(args, tag, spool):
    steps = [values_of(s) for s in range(args.steps)]
    run = pvt.init(
        name=f"bench-sdk-{tag}", api_url=args.url, api_token=args.token, project=args.project, spool_dir=spool
    )
    cost = []
    clock = time.perf_counter_ns
    start = time.perf_counter()
    for step, values in enumerate(steps):
        t0 = clock()
        run.log(values, step=step)
        cost.append(clock() - t0)
    logged = time.perf_counter()
    run.finish(timeout=600)
    done = time.perf_counter()
    if run.problems:
        raise SystemExit(f"sdk run reported problems: {run.problems}")
    check_points(args, run.id)
    points = args.steps * len(NAMES)
    return {
        "log_us": summary_us(cost),
        "log_loop_s": logged - start,
        "finish_wait_s": done - logged,
        "end_to_end_s": done - start,
        "points_per_s": points / (done - start),
        "counts": run.counts,
    }


def bench_jsonl(args, tag, directory, flush):
    steps = [values_of(s) for s in range(args.steps)]
    path = Path(directory) / f"trainer-{tag}-{'flush' if flush else 'buffered'}.jsonl"
    cost = []
    clock = time.perf_counter_ns
    with open(path, "w", encoding="utf-8") as f:
        name = f"bench-jsonl-{tag}-{int(flush)}"
        f.write(json.dumps({"type": "run", "clientId": name, "name": name}) + "\n")
        for step, values in enumerate(steps):
            t0 = clock()
            f.write(json.dumps({"type": "metrics", "id": f"step-{step}", "step": step, "values": values}) + "\n")
            if flush:
                f.flush()
            cost.append(clock() - t0)
        f.write(json.dumps({"type": "status", "status": "SUCCEEDED"}) + "\n")
    return path, {"log_us": summary_us(cost)}


def upload_with_cli(args, path, directory):
    env = {
        **os.environ,
        "PARAVT_URL": args.url,
        "PARAVT_TOKEN": args.token,
        "PARAVT_PROJECT": args.project,
        "PARAVT_CONFIG": str(Path(directory) / "cli-config.json"),
    }
    start = time.perf_counter()
    res = subprocess.run(
        ["npx", "--no-install", "paravt", "ingest", str(path)], cwd=args.root, env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if res.returncode != 0:
        raise SystemExit(f"paravt ingest failed: {res.stderr}")
    state = json.loads(Path(f"{path}.paravt-state.json").read_text())
    check_points(args, state["runId"])
    return {"end_to_end_s": elapsed, "points_per_s": args.steps * len(NAMES) / elapsed}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--root", required=True, help="the repository (for npx paravt)")
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    stamp = time.strftime("%Y%m%d-%H%M%S")
    reps = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            tag = f"{stamp}-{r}"
            load = os.getloadavg()[0]
            # Alternate the order so that a load change does not favour one side.
            if r % 2 == 0:
                sdk = bench_sdk(args, tag, os.path.join(tmp, "spool"))
                path, buffered = bench_jsonl(args, tag, tmp, flush=False)
                path_f, flushed = bench_jsonl(args, tag, tmp, flush=True)
            else:
                path_f, flushed = bench_jsonl(args, tag, tmp, flush=True)
                path, buffered = bench_jsonl(args, tag, tmp, flush=False)
                sdk = bench_sdk(args, tag, os.path.join(tmp, "spool"))
            cli = upload_with_cli(args, path_f, tmp)
            rep = {"load_before": load, "sdk": sdk, "jsonl": buffered, "jsonl_flush": flushed, "cli_upload": cli}
            reps.append(rep)
            print(
                f"rep {r + 1}/{args.repeat} (load {load:.1f}): sdk log() p50 {sdk['log_us']['p50']:.1f} us "
                f"p99 {sdk['log_us']['p99']:.1f} us, {sdk['points_per_s']:,.0f} points/s end to end "
                f"({sdk['end_to_end_s']:.2f} s); jsonl p50 {buffered['log_us']['p50']:.1f} us "
                f"p99 {buffered['log_us']['p99']:.1f} us; jsonl+flush p50 {flushed['log_us']['p50']:.1f} us "
                f"p99 {flushed['log_us']['p99']:.1f} us; cli upload {cli['points_per_s']:,.0f} points/s "
                f"({cli['end_to_end_s']:.2f} s)",
                flush=True,
            )

    def med(key, sub):
        return statistics.median(r[key][sub] if not isinstance(sub, tuple) else r[key][sub[0]][sub[1]] for r in reps)

    result = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "load_after": os.getloadavg(),
        },
        "steps": args.steps,
        "points": args.steps * len(NAMES),
        "repetitions": reps,
        "median": {
            "sdk_log_p50_us": med("sdk", ("log_us", "p50")),
            "sdk_log_p99_us": med("sdk", ("log_us", "p99")),
            "jsonl_p50_us": med("jsonl", ("log_us", "p50")),
            "jsonl_p99_us": med("jsonl", ("log_us", "p99")),
            "jsonl_flush_p50_us": med("jsonl_flush", ("log_us", "p50")),
            "jsonl_flush_p99_us": med("jsonl_flush", ("log_us", "p99")),
            "sdk_points_per_s": med("sdk", "points_per_s"),
            "sdk_end_to_end_s": med("sdk", "end_to_end_s"),
            "sdk_finish_wait_s": med("sdk", "finish_wait_s"),
            "cli_points_per_s": med("cli_upload", "points_per_s"),
            "cli_end_to_end_s": med("cli_upload", "end_to_end_s"),
        },
    }
    m = result["median"]
    m["ratio_sdk_over_jsonl_p50"] = m["sdk_log_p50_us"] / m["jsonl_p50_us"]
    m["ratio_sdk_over_jsonl_flush_p50"] = m["sdk_log_p50_us"] / m["jsonl_flush_p50_us"]
    m["ratio_sdk_over_cli_points_per_s"] = m["sdk_points_per_s"] / m["cli_points_per_s"]
    Path(args.out).write_text(json.dumps(result, indent=2))
    print(json.dumps(m, indent=2))


if __name__ == "__main__":
    sys.exit(main())
