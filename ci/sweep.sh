#!/usr/bin/env bash
# ci/sweep.sh [SEEDS] [deja sweep options...]: every floor of SEEDS (default
# 1..2001) checked, and each seed played by the explorer bot with every turn
# invariant checked after every key. The JSON report goes to
# target/sweep-report.json and each failure's recording to
# target/sweep-failures/ unless the options name others. Extra options go to
# `deja sweep`, e.g. `ci/sweep.sh 1..20001 --shard 2/4 -o shard2.json`.
set -euo pipefail
cd "$(dirname "$0")/.."

seeds=${1:-1..2001}
shift $(($# > 0 ? 1 : 0))
defaults=()
[[ " $* " == *" -o "* ]] || defaults+=(-o target/sweep-report.json)
[[ " $* " == *" --save-failures "* ]] || defaults+=(--save-failures target/sweep-failures)
cargo run --release --locked -q -p harness -- sweep --seeds "$seeds" --bot explorer \
    --format json "${defaults[@]}" "$@"
