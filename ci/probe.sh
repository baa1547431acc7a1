#!/usr/bin/env bash
# ci/probe.sh: the harness's dynamic checks, and nothing else, as one measure
# of the bugs it catches (docs/mutation.md). Builds deja in release and runs
# `deja probe`: every floor of 2000 seeds on ten map sizes, then the random
# bot, the swarm and the explorer (400 to 1000 seeds each; every turn
# invariant, the record, key, time, sight and screen checks, the oracles on
# a sample of keys, progress, hangs), each sweep
# against its baseline in baselines/sweep.ron, and every committed fuzz input.
# Exits non-zero when any of them finds something, and prints what.
#
# 16 seconds after a warm build on a 2-core machine (under a minute on a
# slower one). After an intended
# change to the game's balance or generation: `deja probe --bless`, review
# `git diff baselines/`, commit.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    echo "usage: ci/probe.sh   (no arguments; deja probe --help for the options)" >&2
    exit 2
fi
cargo build --release --locked -q -p harness
# The binary cargo just built, wherever CARGO_TARGET_DIR puts it.
exec "$(ci/target-dir.sh)/release/deja" probe
