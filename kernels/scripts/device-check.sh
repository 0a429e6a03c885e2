#!/usr/bin/env bash
# The one device check of the CUDA core (issue 39 item 4), for an H100/H200 machine with nvcc,
# PyTorch and Python (no Node.js). From the repository root:
#
#   bash kernels/scripts/device-check.sh            # ~6-8 min on an H200
#
# 1. builds the CUDA backend (make -C kernels/test cuda: nvcc for sm_90 + PTX, g++ for the core);
# 2. runs the parity tests on the device (test/test_cuda.cc: every op, the PVTK fixture step, an RL
#    update and greedy decoding of 50 prompts, each against the CPU reference), then again under
#    compute-sanitizer memcheck when it is there;
# 3. runs the benchmark (bench_cuda vs bench/kernels/torch_step.py, same shapes and batch layout):
#    SFT step tokens/s and RL step time for the default nano config and ~25 M and ~100 M parameter
#    configs, CUDA core (with cuBLAS where a libcublas is found, and with its own matmul kernel)
#    vs the PyTorch mirror eager and under torch.compile (reduce-overhead: max-autotune's compile
#    alone would not fit the time box), and decode tokens/s at batch 1, 8, 64. The compiled runs
#    come last and are skipped once the budget (BUDGET_S, 420 s) is near; SKIP_COMPILE=1,
#    SKIP_OWN=1 (the own-matmul rows) and SKIP_MEMCHECK=1 shorten a run;
# 4. profiles one core step per op (profile_step_cuda) for the 25 M config;
# 5. prints the tables (also $OUT/device-table.md when OUT is set) for kernels/README.md.
# Everything it measured is in $OUT (or /tmp/paravt-device-check) as it goes: bench.jsonl, the logs.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT_DIR="${OUT:-/tmp/paravt-device-check}"
mkdir -p "$OUT_DIR"
LOG="$OUT_DIR/device-check.log"
: > "$LOG"
say() { echo "$@" | tee -a "$LOG"; }
start=$(date +%s)
BUDGET_S=${BUDGET_S:-420}
deadline=$(( start + BUDGET_S ))
elapsed() { echo $(( $(date +%s) - start )); }

for tool in make g++ nvcc python3; do
  command -v "$tool" >/dev/null || { echo "device-check: $tool is not on the PATH"; exit 1; }
done
say "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
say "== nvcc: $(nvcc --version | tail -1); python3 $(python3 -c 'import torch,sys; print(sys.version.split()[0], "torch", torch.__version__)' 2>&1 | tail -1)"
# cuBLAS for the core's matmuls (src/cuda/cublas.cu loads it at run time): the loader's path, else
# the copy PyTorch's wheels or a CUDA toolkit keep.
if [ -z "${PARAVT_CUBLAS:-}" ] && ! ldconfig -p 2>/dev/null | grep -qE "libcublas\.so\.1[23] "; then
  lib=$(find /usr/local/cuda*/lib64 /usr/local/cuda*/targets/*/lib /opt /usr/lib -name "libcublas.so.1[23]" 2>/dev/null | head -1)
  [ -n "$lib" ] && export PARAVT_CUBLAS="$lib"
fi
say "== cuBLAS: ${PARAVT_CUBLAS:-from the loader path}"
if ! make -s -j"$(nproc)" -C kernels/test cuda >>"$LOG" 2>&1; then
  say "BUILD FAILED (tail of the log):"; tail -40 "$LOG"; exit 1
fi
say "== built in $(elapsed) s"

say "== parity (test_cuda)"
(cd kernels/test && ../build/test/cuda/test_cuda fixtures/step-v1.bin) > "$OUT_DIR/parity.log" 2>&1
parity=$?
grep -v "^  ok" "$OUT_DIR/parity.log" | tail -15
if [ "$parity" = 2 ]; then
  say "no usable CUDA device (above): benchmark skipped"; exit 2
fi
if [ "${SKIP_MEMCHECK:-0}" != 1 ] && command -v compute-sanitizer >/dev/null; then
  say "== memcheck (compute-sanitizer, at most 60 s) at $(elapsed) s"
  (cd kernels/test && timeout 60 compute-sanitizer --tool memcheck --print-limit 20 ../build/test/cuda/test_cuda fixtures/step-v1.bin) \
    > "$OUT_DIR/memcheck.log" 2>&1
  say "   memcheck exit $? : $(grep -E "ERROR SUMMARY|test_cuda:" "$OUT_DIR/memcheck.log" | tr '\n' ' ')"
fi

say "== benchmark at $(elapsed) s"
BENCH="$OUT_DIR/bench.jsonl"
: > "$BENCH"
# one JSON line per measure, tagged with its config
tag() { while read -r line; do [ -n "$line" ] && echo "{\"config\":\"$1\",${line#\{}" >> "$BENCH"; done; }
# name B T V C L H P
# The default checkpoint's shape (V 1137, C 128, L 4, H 4, P 7,776: 48x27 rgb+foreground frame
# features) and two wider ones with the same vocabulary and frames; 8 x 512 tokens, 8 frame slots
# in every 40 positions.
CONFIGS=(
  "nano-default 8 512 1137 128 4 4 7776"
  "C512-L8 8 512 1137 512 8 8 7776"
  "C768-L14 8 512 1137 768 14 12 7776"
)
for c in "${CONFIGS[@]}"; do
  read -r name B T V C L H P <<<"$c"
  timeout 90 kernels/build/test/cuda/bench_cuda "$B" "$T" "$V" "$C" "$L" "$H" "$P" 5 2>>"$LOG" | tag "$name"
  if [ "${SKIP_OWN:-0}" != 1 ]; then  # the own matmul kernels instead of cuBLAS
    PARAVT_CUBLAS=0 timeout 90 kernels/build/test/cuda/bench_cuda "$B" "$T" "$V" "$C" "$L" "$H" "$P" 5 2>>"$LOG" | tag "$name"
  fi
  # bf16 mixed precision: the core's PARAVT_MATMUL_PRECISION=bf16 vs PyTorch's "medium" (the same
  # cuBLAS compute type, CUBLAS_COMPUTE_32F_FAST_16BF, on fp32 tensors)
  PARAVT_MATMUL_PRECISION=bf16 timeout 90 kernels/build/test/cuda/bench_cuda "$B" "$T" "$V" "$C" "$L" "$H" "$P" 5 \
    2>>"$LOG" | tag "$name"
  timeout 120 python3 bench/kernels/torch_step.py --device cuda --suite --compile none --no-decode --reps 5 \
    --matmul-precision medium --B "$B" --T "$T" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" 2>>"$LOG" | tag "$name"
  timeout 120 python3 bench/kernels/torch_step.py --device cuda --suite --compile none --reps 5 \
    --B "$B" --T "$T" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" 2>>"$LOG" | tag "$name"
  say "   $name: core and eager done at $(elapsed) s"
done
say "== profile of one core step per op (the device synchronised around each op) at $(elapsed) s"
for shape in "8 512 1137 128 4 4 7776" "8 512 1137 768 14 12 7776"; do
  # shellcheck disable=SC2086  # the shape's numbers are separate arguments
  timeout 60 kernels/build/test/cuda/profile_step_cuda $shape 1 3 >> "$OUT_DIR/profile.txt" 2>&1
done
cat "$OUT_DIR/profile.txt"
for c in "${CONFIGS[@]}"; do
  [ "${SKIP_COMPILE:-0}" = 1 ] && { say "   compile skipped (SKIP_COMPILE=1)"; break; }
  read -r name B T V C L H P <<<"$c"
  left=$(( deadline - $(date +%s) ))
  [ "$left" -lt 60 ] && { say "   $name: compile skipped ($left s left of the budget)"; continue; }
  timeout "$left" python3 bench/kernels/torch_step.py --device cuda --suite --compile reduce-overhead --reps 5 \
    --deadline "$deadline" --B "$B" --T "$T" --V "$V" --C "$C" --L "$L" --H "$H" --P "$P" 2>>"$LOG" | tag "$name"
  say "   $name: compiled done at $(elapsed) s"
done

python3 kernels/scripts/device_table.py "$BENCH" "$OUT_DIR/parity.log" | tee "$OUT_DIR/device-table.md"
say "== total $(elapsed) s; parity exit $parity"
exit "$parity"
