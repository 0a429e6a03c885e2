#!/usr/bin/env bash
# The one device check of the CUDA core (issue 39 item 4), for an H100/H200 machine with nvcc,
# PyTorch and Python (no Node.js). From the repository root:
#
#   bash kernels/scripts/device-check.sh            # ~5-8 min on an H200
#
# 1. builds the CUDA backend (make -C kernels/test cuda: nvcc for sm_90 + PTX, g++ for the core);
# 2. runs the parity tests on the device (test/test_cuda.cc: every op, the PVTK fixture step, an RL
#    update and greedy decoding of 50 prompts, each against the CPU reference);
# 3. runs the benchmark: SFT step tokens/s for the default nano config and ~25 M and ~100 M
#    parameter configs, CUDA core vs the PyTorch mirror eager and under torch.compile
#    (reduce-overhead: max-autotune's compile alone would not fit the time box), and decode
#    tokens/s at batch 1, 8, 64;
# 4. prints one markdown table (also in $OUT/device-table.md when OUT is set) for kernels/README.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT_DIR="${OUT:-/tmp/paravt-device-check}"
mkdir -p "$OUT_DIR"
LOG="$OUT_DIR/device-check.log"
: > "$LOG"
say() { echo "$@" | tee -a "$LOG"; }

for tool in make g++ nvcc python3; do
  command -v "$tool" >/dev/null || { echo "device-check: $tool is not on the PATH"; exit 1; }
done
say "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
say "== nvcc: $(nvcc --version | tail -1)"
start=$(date +%s)
if ! make -s -j"$(nproc)" -C kernels/test cuda >>"$LOG" 2>&1; then
  say "BUILD FAILED (tail of the log):"; tail -40 "$LOG"; exit 1
fi
say "== built in $(( $(date +%s) - start )) s"

say "== parity (test_cuda)"
(cd kernels/test && ../build/test/cuda/test_cuda fixtures/step-v1.bin) 2>&1 | tee "$OUT_DIR/parity.log" | tail -12
parity=${PIPESTATUS[0]}
if [ "$parity" = 2 ]; then
  say "no usable CUDA device (above): benchmark skipped"; exit 2
fi

say "== benchmark"
BENCH="$OUT_DIR/bench.jsonl"
: > "$BENCH"
# name B T V C L H P
CONFIGS=(
  "nano-2.2M 8 512 1137 128 4 4 48"
  "25M 8 512 1137 512 8 8 48"
  "100M 8 512 1137 768 14 12 48"
)
for c in "${CONFIGS[@]}"; do
  read -r name B T V C L H P <<<"$c"
  core=$(timeout 120 kernels/build/test/cuda/bench_cuda "$B" "$T" "$V" "$C" "$L" "$H" "$P" 5 2>>"$LOG")
  eager=$(timeout 120 python3 bench/kernels/torch_step.py --device cuda --B "$B" --T "$T" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" --reps 5 2>>"$LOG")
  compiled=$(timeout 240 python3 bench/kernels/torch_step.py --device cuda --compile reduce-overhead --B "$B" --T "$T" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" --reps 5 2>>"$LOG")
  dec=""
  for db in 1 8 64; do
    d=$(timeout 120 python3 bench/kernels/torch_step.py --device cuda --decode 128 --prompt 32 --decode-batch "$db" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" --reps 2 2>>"$LOG")
    dec="$dec\"$db\":${d:-null},"
  done
  echo "{\"config\":\"$name\",\"core\":${core:-null},\"eager\":${eager:-null},\"compiled\":${compiled:-null},\"torch_decode\":{${dec%,}}}" >> "$BENCH"
  say "   $name done ($(( $(date +%s) - start )) s)"
done

python3 kernels/scripts/device_table.py "$BENCH" "$OUT_DIR/parity.log" | tee "$OUT_DIR/device-table.md"
say "== total $(( $(date +%s) - start )) s; parity exit $parity"
exit "$parity"
