#!/usr/bin/env bash
# ci/test.sh: format, lints and every test, as CI runs them. CI=true makes
# insta fail on a new or changed snapshot instead of writing it: review with
# `cargo insta review` and commit the accepted .snap files.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true

step() { printf '\n--> %s\n' "$*"; }

rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "cargo fmt --all -- --check"
cargo fmt --all -- --check

step "cargo test --workspace  (the README's test command), linted by clippy as it compiles"
# `cargo clippy` type-checked the workspace and its dependencies a second
# time only to lint them (227 s of this script's 1067 s on 2 cores); with
# clippy-driver as the compiler wrapper (ci/lint-wrapper.sh) the build of
# the tests lints them. It lints what `clippy --workspace --all-targets
# --all-features` did: the tests build every feature (harness's
# dev-dependency on game-core turns on `arbitrary` and `canary`; harness's
# own `canary` only forwards to game-core's), `cargo test` builds the
# libraries, binaries, tests and examples, and `--benches` below the rest.
source ci/lint-wrapper.sh
# insta writes every snapshot a test asserts to this file; any other file in
# snapshots/ is an orphan left by a renamed or removed test.
references=$(mktemp)
trap 'rm -f "$references"' EXIT
INSTA_SNAPSHOT_REFERENCES_FILE="$references" cargo test --workspace --locked

step "cargo test --workspace --benches  (the benchmarks, linted, each run once)"
# Without `--bench`, divan runs each benchmark once as a test.
cargo test --workspace --locked --benches

step "every file in snapshots/ belongs to a test"
orphans=$(comm -23 <(cd snapshots && ls -- *.snap | sort) \
    <(xargs -rd '\n' -n1 basename <"$references" | sort -u))
if [ -n "$orphans" ]; then
    echo "these snapshots belong to no test; git rm them (or restore their test):" >&2
    printf '  snapshots/%s\n' $orphans >&2
    exit 1
fi
echo "$(ls snapshots/*.snap | wc -l) snapshots, each asserted by a test"

# game-core's fuzzer feature (`arbitrary`) needs no build of its own: the
# harness depends on game-core with it, so `cargo test --workspace` above
# builds game-core with it and runs tests/arbitrary_intents.rs (a separate
# `cargo test -p game-core --features arbitrary` rebuilt game-core and its
# tests for that one file: two minutes of every run).

# Debug and release must agree on every state hash. The corpus recordings
# are blessed with a release build and replayed step by step, every hash
# compared, by `cargo test` above (debug) and by ci/replay.sh (release): a
# disagreement fails one of the two. A release build of game-core's tests
# for the pinned hash alone cost about a minute.
