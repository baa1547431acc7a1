#!/usr/bin/env bash
# ci/mutants.sh: cargo-mutants over game-core with the probe as the only
# test (docs/mutation.md). A mutant is caught when `deja probe` finds
# something; nothing else (no unit test, snapshot or replay) takes part.
#
#   ci/mutants.sh                  the measure: the sample (about 160 mutants
#                                  spread over every file in scope)
#   ci/mutants.sh --in-diff BASE   only mutants on lines changed since BASE
#                                  (what a pull request runs)
#   ci/mutants.sh --named          14 chosen mutants across the core's rules
#                                  (sight, combat, turns, exploring, items,
#                                  spawning, maps, keys): each must be caught
#   ci/mutants.sh --shard K/N      one round-robin shard of everything in scope
#   ci/mutants.sh ... -- ARGS      more arguments for cargo mutants
#
# Scope, exclusions and the equivalent mutants are in .cargo/mutants.toml.
# Prints caught, missed, unviable and timeouts, the catch rate over the
# viable ones, and every missed mutant. Exits 1 when a mutant is missed
# (or times out), so a pull request that adds uncaught code is flagged.
# Each mutant costs a rebuild (about 15 s in the `mutants` profile) and a
# probe (about 16 s when nothing is found on a 2-core machine, under a
# minute on a slower one; a caught mutant stops at the first sweep that
# finds it, most in the floors or the random bot's, within 15 s): the sample
# takes about half an hour on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

# The sample: 159 mutants drawn round-robin (one in 13, in source order, so
# every file of more than 13 mutants is in it), kept in
# ci/mutants-sample.txt and not redrawn as the code changes: changing it
# changes the measure; say so in docs/mutation.md.

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
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
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
# A probe takes about 16 s and a mutant's build about 15 s (the first, a
# whole build, a few minutes); the watchdog reports a hanging key after 10 s.
args=(--test-package harness --output "$out" --no-shuffle --colors never
    --baseline skip --timeout 300 --build-timeout 1200)
case $mode in
    sample)
        # Each sample line names a mutant by file, occurrence and text
        # (ci/mutants-sample.txt says why); today's name of each, with its
        # line and column, is picked out of the full list as an exact -F.
        cargo mutants --list --no-shuffle >"$out/all-mutants.txt"
        awk -v listed="$out/all-mutants.txt" '
            BEGIN {
                while ((getline line < listed) > 0) {
                    file = line; sub(/:[0-9]+:[0-9]+: .*/, "", file)
                    text = line; sub(/^[^:]*:[0-9]+:[0-9]+: /, "", text)
                    n = ++seen[file SUBSEP text]
                    name[file SUBSEP n SUBSEP text] = line
                }
            }
            /^#/ || /^$/ { next }
            {
                file = $1; k = $2; sub(/^#/, "", k); sub(/:$/, "", k)
                text = $0; sub(/^[^ ]+ #[0-9]+: /, "", text)
                key = file SUBSEP k SUBSEP text
                if (key in name) print name[key]
                else print $0 > gone
            }' gone="$out/sample-gone.txt" ci/mutants-sample.txt >"$out/sample.txt"
        if [ -s "$out/sample-gone.txt" ]; then
            # Excluded since as equivalent (.cargo/mutants.toml says why), or
            # the code they mutated is gone: docs/mutation.md lists which.
            echo "of the sample, $(grep -c . "$out/sample-gone.txt") are no longer in scope (excluded by .cargo/mutants.toml, or their code is gone):"
            sed 's/^/  /' "$out/sample-gone.txt"
        fi
        while IFS= read -r mutant; do
            args+=(-F "^$(printf '%s' "$mutant" | sed 's/[][\\.^$*+?(){}|]/\\&/g')\$")
        done <"$out/sample.txt"
        echo "the sample: $(grep -c . "$out/sample.txt") mutants (ci/mutants-sample.txt)" ;;
    shard) args+=(--shard "$shard" --sharding round-robin) ;;
    diff)
        git diff "$base" -- game-core/src >"$out/changes.diff"
        if ! [ -s "$out/changes.diff" ]; then
            echo "no change to game-core/src since $base: nothing to mutate"
            exit 0
        fi
        args+=(--in-diff "$out/changes.diff") ;;
    named)
        # One or two mutants of each of the core's rules: each must be caught.
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

if [ "$mode" = sample ]; then
    echo "cargo mutants, with an -F for each mutant of the sample ($out/sample.txt) ${extra[*]}"
else
    echo "cargo mutants ${args[*]} ${extra[*]}"
fi
status=0
cargo mutants "${args[@]}" "${extra[@]}" || status=$?

results="$out/mutants.out"
# The outcomes of one kind. cargo-mutants 27.1 tests a struct-field deletion
# (fov.rs's `delete field depth from struct Row expression`) whatever -F and
# -E say, so the sample's figures keep only the sample's mutants.
outcomes() {
    [ -f "$results/$1.txt" ] || return 0
    if [ "$mode" = sample ]; then
        grep -Fx -f "$out/sample.txt" "$results/$1.txt" || true
    else
        cat "$results/$1.txt"
    fi
}
count() { outcomes "$1" | grep -c . || true; }
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
    if [ "$(count "$kind")" -gt 0 ]; then
        echo "$kind:"
        outcomes "$kind" | sed 's/^/  /'
    fi
done
# cargo mutants exits 2 when a mutant is missed, 3 on a timeout.
case $status in
    0) exit 0 ;;
    2|3) [ $((missed + timeouts)) -gt 0 ] && exit 1; exit 0 ;;
    *) echo "cargo mutants failed (exit $status); see $results/debug.log" >&2; exit "$status" ;;
esac
