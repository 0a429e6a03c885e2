#!/usr/bin/env bash
# The lineage of packages/nano/checkpoints/default (`o1`), stage by stage: every command that made
# it, in order, each stage starting from the one before. Transcribed from the commands recorded
# when each stage ran (research/LOG.md, 2026-11-25 to 2026-11-27); the same stages are in the
# checkpoint's config.json `lineage`.
#
#   research/recipes/default.sh list              the stages below
#   research/recipes/default.sh 1                 stage 1 (its data first, when missing)
#   research/recipes/default.sh 7-11              stages 7 to 11
#   research/recipes/default.sh all               every stage, then the inference copy
#   SMOKE=1 research/recipes/default.sh 1         the same commands on 2 videos, 2 steps (torch: batch 2): a
#                                                 check that a stage runs, not the stage
#
# Work goes to $LINEAGE (default var/lineage; var/lineage-smoke with SMOKE=1): suites/, gpu/ (exports for the PyTorch mirror),
# runs/ (checkpoints). Stages 1-6 run on the compute core through research/curricula/train.ts
# (the curricula that trained them are research/curricula/); stages 7-18 run the PyTorch mirror
# research/torch/train_sft.py, exported and imported by research/torch/gpu-sft.ts. The stages
# marked H100/H200 ran on a lent GPU: on a machine without one, run the printed python3 command on
# the device (`run`, carrying $LINEAGE/gpu/<export> and the parent's model.safetensors); it also
# runs on CPU torch, slower. A rerun repeats the recipe, not the bits: the mirror's three batch
# threads race for the queue, so batches come in another order (research/torch/README.md).
#
#  #  stage       trainer  hardware             steps  batch  lr      seed  time      data
#  1  scratch-fg  core     2-core VM CPU        10000  2      1e-3    1     95 min    train300 (seed 1, 300 videos, reference)
#  2  scratch-fg2 core     2-core VM CPU         2000  2      5e-4    2     27 min    train300   (= checkpoints/perception)
#  3  perc-ans    core     2-core VM CPU         3000  2      5e-4    3     52 min    train1000b (seed 2, 1000 videos, reference)
#  4  ans2        core     2-core VM CPU         1500  2      2.5e-4  4     24 min    train1000b (run dir perc-ans2)
#  5  permfocus   core     2-core VM CPU          800  2      5e-4    8     22 min    train1000b, main agent only
#  6  permmix     core     2-core VM CPU         1500  2      3e-4    9     32 min    train1000b
#  7  gpu2-c      torch    1x H200               4455  32     6e-4    53    7.9 min   train1000m (seed 2, 1000 videos, when mmss), 700 exported
#  8  gpu3-d      torch    1x H200               1856  32     3e-4    61    3.0 min   train450c (seed 2, 450 videos, when mmss + crops)
#  9  sp-m1       torch    2-core VM CPU         4500  8      6e-4    71    28 min    m1-time-first (seed 11, 20 one-minute videos) + when drill
# 10  sp-m1b-73   torch    2-core VM CPU (1 thr) 2500  8      6e-4    73    23 min    m1-time-first
# 11  sp-tf       torch    2-core VM CPU         1500  8      3e-4    83    18.5 min  tf200 (seed 2, 200 videos, time-first)
# 12  mix-b       torch    1x H100               2583  32     3e-4    92    7.4 min   tf660 (seed 7, 660 videos, time-first)
# 13  sc-c        torch    1x H100               4576  32     6e-4    303   7.6 min   sct400 (seed 9, 400 videos, scenes through crops, text-first)
# 14  sc-cl       torch    2-core VM CPU          803  32     5e-4    311   18 min    letter drill of sct400 (5000 videos of seed 6)
# 15  sc-cm       torch    2-core VM CPU          665  8      3e-4    312   11.5 min  sct400
# 16  l2          torch    2-core VM CPU         1424  32     5e-4    401   30 min    letter drill of sct400
# 17  m2r         torch    2-core VM CPU         1635  8      3e-4    402   29 min    sct400, multi-round trajectories twice
# 18  o1          torch    2-core VM CPU         3343  8      3e-4    501   41 min    sco400 (seed 9, 400 videos, oracle style nano-default)
#
# Core stages: 4.2 h of CPU; torch stages: 26 min of GPU (4 stages) and 3.3 h of CPU torch (8). Suites and
# exports add about 25 min. The final checkpoint is the inference copy of stage 18 (no AdamW moments).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SMOKE=${SMOKE:-0}
# A smoke run works apart, so that its 2-video suites are never taken for the real ones.
if [ "$SMOKE" = 1 ]; then L=${LINEAGE:-var/lineage-smoke}; else L=${LINEAGE:-var/lineage}; fi
mkdir -p "$L/suites" "$L/gpu" "$L/runs"

# SMOKE=1: the same commands, on 2 videos and 2 steps.
steps() { if [ "$SMOKE" = 1 ]; then echo 2; else echo "$1"; fi; }
SMOKE_BATCH="" # the last --batch wins: a 1-video export has fewer examples than a batch of 32
if [ "$SMOKE" = 1 ]; then SMOKE_BATCH="--batch 2"; fi
count() { if [ "$SMOKE" = 1 ]; then echo 2; else echo "$1"; fi; }
say() { printf '\n== %s\n' "$*" >&2; }

# A suite, generated once (paravt suite generate; the oracle style is a preset or knob=value list).
suite() { # name seed count style [more flags]
  local name=$1 seed=$2 n=$3 style=$4
  shift 4
  [ -f "$L/suites/$name/manifest.json" ] && return 0
  say "suite $name (seed $seed, $n videos, oracle style $style)"
  npx paravt suite generate --seed "$seed" --count "$(count "$n")" --oracle-style "$style" "$@" --out "$L/suites/$name"
}

# The compute core's SFT trainer with the research curricula (research/curricula/train.ts).
core() { # out init-or-preset steps … (the rest are train.ts flags)
  local out=$1 from=$2 n=$3
  shift 3
  local start=(--init-from "$from")
  [ "$from" = scratch ] && start=(--preset small --frame-encoding rgb+foreground)
  say "core: $out ($n steps)"
  npx tsx research/curricula/train.ts --out "$L/runs/$out" "${start[@]}" --steps "$(steps "$n")" \
    --ks 4,8,16 --think-prefix --alias-video-paths --frame-targets 3 --frame-drill 2,16 --emphasize-palette 2 --batch 2 "$@"
}
# The last step-NNNNNN checkpoint of a core run.
last() { ls -d "$L/runs/$1"/step-* | sort | tail -1; }

# An export of a suite's SFT examples for the PyTorch mirror (research/torch/gpu-sft.ts).
export_for_torch() { # name suite init-checkpoint [more export flags]
  local name=$1 suite=$2 init=$3
  shift 3
  [ -f "$L/gpu/$name/meta.json" ] && return 0
  say "export $name from $suite"
  if [ "$SMOKE" = 1 ]; then # the same flags with 2 videos of each kind (the suite has 2)
    local a=() prev=""
    for x in "$@"; do
      case $prev in --videos | --drill-videos | --letter-drill-videos) x=2 ;; esac
      a+=("$x")
      prev=$x
    done
    set -- --videos 2 "${a[@]}"
  fi
  npx tsx research/torch/gpu-sft.ts export --suite "$L/suites/$suite" --init "$init" --out "$L/gpu/$name" "$@"
}

# The PyTorch mirror (research/torch/train_sft.py); OMP_NUM_THREADS as on the 2-core VM.
torch() { # export out init.safetensors steps … (the rest are train_sft.py flags)
  local data=$1 out=$2 init=$3 n=$4
  shift 4
  say "torch: $out ($n steps) on $data"
  (cd research/torch && OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} python3 train_sft.py --data "$ROOT/$L/gpu/$data" \
    --init "$ROOT/$init" --out "$ROOT/$L/runs/$out" --steps "$(steps "$n")" --snapshots "" "$@" $SMOKE_BATCH)
}
# A mirror run's weights as a checkpoint (research/torch/gpu-sft.ts import).
import_torch() { # out step seed [--init checkpoint]
  local out=$1 n=$2 seed=$3
  shift 3
  npx tsx research/torch/gpu-sft.ts import --model "$L/runs/$out/model-final.safetensors" --out "$L/runs/$out-ckpt" \
    --step "$(steps "$n")" --seed "$seed" "$@"
}
ckpt() { echo "$L/runs/$1-ckpt"; }
weights() { echo "$L/runs/$1-ckpt/model.safetensors"; }

# The oracle styles of the torch stages' suites (packages/suite README, oracle styles).
WHEN=when-answer=mmss,when-search=crops
TIME_FIRST=$WHEN,shape-sentence=time-first
SCENES=$TIME_FIRST,scene-search=crops,scene-answer=quote,option-style=text-first
# Every torch stage from stage 9 on: one token per main-agent time, sub-agents spell theirs.
V2="--permute-palette 0.5 --permute-digits 0 --time-tokens --spell-sub-agent-times"
MIX="--shift-times 0.5 --repeat scene_color=2,count=2,order=2,when=2 --drill 4 --letter-drill 2 --letter-weight 5"

stage() {
  case $1 in
  1)
    suite train300 1 300 reference
    core scratch-fg scratch 10000 --suite "$L/suites/train300" --lr 1e-3 --seed 1 --checkpoint-every 1000 ;;
  2) core scratch-fg2 "$(last scratch-fg)" 2000 --suite "$L/suites/train300" --lr 5e-4 --seed 2 ;;
  3)
    suite train1000b 2 1000 reference
    core perc-ans "$(last scratch-fg2)" 3000 --suite "$L/suites/train1000b" --emphasize-answer 3 --lr 5e-4 --seed 3 \
      --checkpoint-every 1000 ;;
  4)
    core perc-ans2 "$(last perc-ans)" 1500 --suite "$L/suites/train1000b" --emphasize-answer 3 --lr 2.5e-4 --seed 4 \
      --checkpoint-every 500 ;;
  5)
    core permfocus "$(last perc-ans2)" 800 --suite "$L/suites/train1000b" --main-agent-only --emphasize-answer 3 \
      --permute-palette 1 --lr 5e-4 --seed 8 --checkpoint-every 200 ;;
  6)
    core permmix "$(last permfocus)" 1500 --suite "$L/suites/train1000b" --emphasize-answer 3 --permute-palette 0.5 \
      --lr 3e-4 --seed 9 --checkpoint-every 500
    npx tsx research/recipes/inference-copy.ts "$(last permmix)" "$L/runs/permmix-ckpt" ;;
  7) # 1x H200
    suite train1000m 2 1000 when-answer=mmss
    export_for_torch data700 train1000m "$(ckpt permmix)" --videos 700
    torch data700 gpu2-c "$(weights permmix)" 4455 --lr 6e-4 --warmup 100 --permute-palette 0.5 --permute-digits 0 \
      --repeat when=8 --shift-times 0.9 --seed 53
    import_torch gpu2-c 4455 53 --init "$(ckpt permmix)" ;;
  8) # 1x H200
    suite train450c 2 450 "$WHEN"
    export_for_torch data450c train450c "$(ckpt gpu2-c)"
    torch data450c gpu3-d "$(weights gpu2-c)" 1856 --lr 3e-4 --warmup 50 --permute-palette 0.5 --permute-digits 0 \
      --repeat when=4 --shift-times 0.5 --seed 61
    import_torch gpu3-d 1856 61 --init "$(ckpt gpu2-c)" ;;
  9)
    suite m1-time-first 11 20 "$TIME_FIRST" --min-minutes 1 --max-minutes 1
    export_for_torch train-m1 m1-time-first "$(ckpt gpu3-d)" --drill-videos 3000 --drill-seed 5
    torch train-m1 sp-m1 "$(weights gpu3-d)" 4500 --batch 8 $V2 --shift-times 0.5 --lr 6e-4 --warmup 100 --seed 71 ;;
  10)
    OMP_NUM_THREADS=1 torch train-m1 sp-m1b-73 "$(weights gpu3-d)" 2500 --batch 8 $V2 --shift-times 0.5 --lr 6e-4 \
      --warmup 100 --seed 73 --continue-from "$ROOT/$L/runs/sp-m1/model-final.safetensors" ;;
  11)
    suite tf200 2 200 "$TIME_FIRST"
    export_for_torch tf200 tf200 "$(ckpt gpu3-d)" --drill-videos 3000 --drill-seed 5
    torch tf200 sp-tf "$(weights gpu3-d)" 1500 --batch 8 $V2 --shift-times 0.5 --lr 3e-4 --warmup 50 --repeat when=2 \
      --drill 4 --seed 83 --continue-from "$ROOT/$L/runs/sp-m1b-73/model-final.safetensors"
    import_torch sp-tf 1500 83 --init "$(ckpt gpu3-d)" ;;
  12) # 1x H100
    suite tf660 7 660 "$TIME_FIRST"
    export_for_torch tf660 tf660 "$(ckpt sp-tf)" --drill-videos 3000 --drill-seed 5
    torch tf660 mix-b "$(weights sp-tf)" 2583 --batch 32 $V2 --shift-times 0.5 --lr 3e-4 --warmup 100 \
      --repeat scene_color=2,count=2,order=2,when=2 --drill 2 --seed 92
    import_torch mix-b 2583 92 --init "$(ckpt sp-tf)" ;;
  13) # 1x H100
    suite sct400 9 400 "$SCENES"
    export_for_torch sct400 sct400 "$(ckpt mix-b)" --drill-videos 2500 --drill-seed 5 --letter-drill-videos 1500 \
      --letter-drill-seed 6
    torch sct400 sc-c "$(weights mix-b)" 4576 --batch 32 --warmup 100 $V2 $MIX --lr 6e-4 --seed 303
    import_torch sc-c 4576 303 --init "$(ckpt mix-b)" ;;
  14)
    export_for_torch lonlysc sct400 "$(ckpt mix-b)" --videos 2 --letter-drill-videos 5000 --letter-drill-seed 6
    torch lonlysc sc-cl "$(weights mix-b)" 803 --batch 32 --warmup 50 $V2 --kinds 3 --letter-short 1 --lr 5e-4 \
      --seed 311 --continue-from "$ROOT/$(weights sc-c)" ;;
  15)
    torch sct400 sc-cm "$(weights mix-b)" 665 --batch 8 --warmup 50 $V2 $MIX --lr 3e-4 --seed 312 \
      --continue-from "$ROOT/$L/runs/sc-cl/model-final.safetensors"
    import_torch sc-cm 665 312 --init "$(ckpt mix-b)" ;;
  16) # the exports again, made from sc-cm (the parity check compares the export's init with --init)
    export_for_torch lonlysc-2 sct400 "$(ckpt sc-cm)" --videos 2 --letter-drill-videos 5000 --letter-drill-seed 6
    export_for_torch sct400-2 sct400 "$(ckpt sc-cm)" --drill-videos 2500 --drill-seed 5 --letter-drill-videos 1500 \
      --letter-drill-seed 6
    torch lonlysc-2 l2 "$(weights sc-cm)" 1424 --batch 32 --warmup 50 $V2 --kinds 3 --letter-short 1 --lr 5e-4 --seed 401 ;;
  17)
    torch sct400-2 m2r "$(weights sc-cm)" 1635 --batch 8 --warmup 50 $V2 $MIX --repeat-rounds 2 --lr 3e-4 --seed 402 \
      --continue-from "$ROOT/$L/runs/l2/model-final.safetensors"
    import_torch m2r 1635 402 --init "$(ckpt sc-cm)" ;;
  18)
    suite sco400 9 400 nano-default
    export_for_torch sco400 sco400 "$(ckpt m2r)" --drill-videos 2500 --drill-seed 5 --letter-drill-videos 1500 \
      --letter-drill-seed 6
    torch sco400 o1 "$(weights m2r)" 3343 --batch 8 --warmup 50 $V2 --shift-times 0.5 \
      --repeat scene_color=2,count=2,order=3,when=2 --drill 4 --letter-drill 2 --letter-weight 5 --repeat-rounds 2 --lr 3e-4 \
      --seed 501
    import_torch o1 3343 501 --init "$(ckpt m2r)"
    npx tsx research/recipes/inference-copy.ts "$(ckpt o1)" "$L/default"
    say "the default checkpoint: $L/default (compare with packages/nano/checkpoints/default)" ;;
  *)
    echo "no stage $1 (1-18)" >&2
    exit 2 ;;
  esac
}

case ${1:-list} in
list) sed -n '/^#  #  stage/,/^# Core stages/p' "$0" | sed 's/^# \{0,1\}//' ;;
all) for s in $(seq 1 18); do stage "$s"; done ;;
*-*) for s in $(seq "${1%-*}" "${1#*-}"); do stage "$s"; done ;;
*) stage "$1" ;;
esac
