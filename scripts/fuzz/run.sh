#!/usr/bin/env bash
# Runs one fuzz target at the lowest priority for a given time:
#   scripts/fuzz/run.sh <binary> <corpus> <seconds> [extra libFuzzer flags]
# binary: model | tflite | metadata | image (built by scripts/fuzz/build.sh)
# corpus: the seed folder name in Fuzz/Corpus (png, jpeg, model, tflite, metadata)
# New inputs go to .build/fuzz/work/<corpus> (not committed); crashes to
# .build/fuzz/crashes/<corpus>/ — minimize them and add them to Fuzz/Crashers/<corpus>.
# -malloc_limit_mb makes any single allocation above 512 MB a finding (memory must stay
# bounded whatever a header declares). The 120 s timeout is generous because at nice 19 on a
# loaded machine a process can be starved for seconds; every reported timeout so far ran in
# under a second alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The whole-model seeds (.tflite, .task) are not committed: write them before each run.
"${FUZZ_PYTHON:-$HOME/.cache/mediapipe-oracle-venv/bin/python}" scripts/fuzz/make_model_seeds.py >/dev/null  # needs flatbuffers
binary=$1 corpus=$2 seconds=$3
shift 3
work=.build/fuzz/work/$corpus
crashes=.build/fuzz/crashes/$corpus
mkdir -p "$work" "$crashes" "Fuzz/Corpus/$corpus"
seeds=("Fuzz/Corpus/$corpus")
[ -d "Fuzz/Crashers/$corpus" ] && seeds+=("Fuzz/Crashers/$corpus")
exec nice -n 19 ".build/fuzz/$binary" "$work" "${seeds[@]}" \
    -max_total_time="$seconds" -timeout=120 -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" "$@"
