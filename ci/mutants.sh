#!/usr/bin/env bash
# ci/mutants.sh: cargo-mutants over game-core with the probe as the only
# test (docs/mutation.md). A mutant is caught when `deja probe` finds
# something; nothing else (no unit test, snapshot or replay) takes part.
#
#   ci/mutants.sh                  the measure: the sample (about 160 mutants
#                                  spread over every file in scope)
#   ci/mutants.sh --in-diff BASE   only mutants on lines changed since BASE
#                                  (what a pull request runs)
#   ci/mutants.sh --named          the mutants issue 10 names
#   ci/mutants.sh --shard K/N      one round-robin shard of everything in scope
#   ci/mutants.sh ... -- ARGS      more arguments for cargo mutants
#
# Scope, exclusions and the equivalent mutants are in .cargo/mutants.toml.
# Prints caught, missed, unviable and timeouts, the catch rate over the
# viable ones, and every missed mutant. Exits 1 when a mutant is missed
# (or times out), so a pull request that adds uncaught code is flagged.
# Each mutant costs a rebuild (about 15 s in the `mutants` profile) and a
# probe (about 56 s when nothing is found; a caught mutant stops at the
# first sweep that finds it, most in the floors or the random bot's, within
# 15 s): the sample takes about an hour on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

# The sample: one mutant in SAMPLE_EVERY, round-robin over the mutants in
# scope in source order, so every file of more than that many mutants is in
# it. Changing it changes the measure: say so in docs/mutation.md. 13 since
# issue 25 (render.rs and frame.rs in scope): 159 mutants at 5f014ff, listed
# in ci/mutants-sample.txt as they were drawn before that issue's work.
SAMPLE_EVERY=13

mode=sample
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --in-diff)
            [ $# -ge 2 ] || { echo "--in-diff needs a base (a commit or branch)" >&2; exit 2; }
            mode=diff base=$2; shift 2 ;;
        --named) mode=named; shift ;;
        --shard)
            [ $# -ge 2 ] || { echo "--shard needs K/N" >&2; exit 2; }
            mode=shard shard=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "unknown argument $1; see ci/mutants.sh --help" >&2; exit 2 ;;
    esac
done

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "cargo-mutants is missing: installing it (a few minutes)"
    cargo install cargo-mutants --locked
fi
cargo mutants --version

out=${MUTANTS_OUT:-target/mutants-run}
mkdir -p "$out"

# The unmutated tree must pass the probe, or no mutant's result means
# anything. cargo-mutants' own baseline would run game-core's tests instead
# of the probe (it tests the mutated package there), so it is skipped and
# this is the baseline.
echo "baseline: the probe on the unmutated tree"
ci/probe.sh
# Scope comes from .cargo/mutants.toml (game-core, less what it excludes);
# the test is harness/tests/probe.rs.
# A probe takes about 26 s and a mutant's build about 15 s (the first, a
# whole build, a few minutes); the watchdog reports a hanging key after 10 s.
args=(--test-package harness --output "$out" --no-shuffle --colors never
    --baseline skip --timeout 300 --build-timeout 1200)
case $mode in
    sample) args+=(--shard "0/$SAMPLE_EVERY" --sharding round-robin) ;;
    shard) args+=(--shard "$shard" --sharding round-robin) ;;
    diff)
        git diff "$base" -- game-core/src >"$out/changes.diff"
        if ! [ -s "$out/changes.diff" ]; then
            echo "no change to game-core/src since $base: nothing to mutate"
            exit 0
        fi
        args+=(--in-diff "$out/changes.diff") ;;
    named)
        # The mutants the issue names: each must be caught.
        named=(
            'replace Game::pos_of -> Option<Pos> with None'
            'replace \+ with \* in scan_quadrant'
            'replace Game::attack with \(\)'
            'replace compute with \(\)'
            'replace Game::tick_round with \(\)'
            'replace route_to_frontier -> Option<Vec<Dir>> with None'
            'replace Game::place_on_floor with \(\)'
            "delete match arm KeyCode::Char\\('k' \\| '8'\\) \\| KeyCode::Up in direction_of"
            'replace \+ with \* in healed'
            'replace \+ with - in Dice::roll'
            'replace choose -> Option<u16> with Some\(0\)'
            'replace split -> Option<\(Rect, Rect\)> with None'
            'replace != with == in Game::run'
            'replace match guard self.is_seen\(who\) with true in Game::name_of'
        )
        for re in "${named[@]}"; do args+=(-F "$re"); done ;;
esac

echo "cargo mutants ${args[*]} ${extra[*]}"
status=0
cargo mutants "${args[@]}" "${extra[@]}" || status=$?

results="$out/mutants.out"
count() {
    if [ -f "$results/$1.txt" ]; then grep -c . "$results/$1.txt" || true; else echo 0; fi
}
caught=$(count caught)
missed=$(count missed)
unviable=$(count unviable)
timeouts=$(count timeout)
viable=$((caught + missed + timeouts))
echo
echo "mutants ($mode): $caught caught, $missed missed, $unviable unviable, $timeouts timeouts"
if [ "$viable" -gt 0 ]; then
    awk -v c="$caught" -v v="$viable" 'BEGIN { printf "catch rate: %d of %d viable, %.1f%%\n", c, v, 100 * c / v }'
fi
for kind in missed timeout; do
    if [ -s "$results/$kind.txt" ]; then
        echo "$kind:"
        sed 's/^/  /' "$results/$kind.txt"
    fi
done
# cargo mutants exits 2 when a mutant is missed, 3 on a timeout.
case $status in
    0) exit 0 ;;
    2|3) exit 1 ;;
    *) echo "cargo mutants failed (exit $status); see $results/debug.log" >&2; exit "$status" ;;
esac
